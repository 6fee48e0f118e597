"""The judges by name: the paper's five and the embedded default, as their providers declare them
(``providers/``), and ``resolve``, the one place a judge name becomes what will be called.

Every judge runs at temperature 0 and asks for JSON where the provider supports it; each API
judge's params follow its provider's documented request rules (``Provider.rules``, each with its
public source and the date it was checked), which the contract emulator in ``tests/`` enforces,
independently written. The five paper judges need a key or a GPU; the embedded default
``smollm2`` runs anywhere on CPU but is a weak judge (see its notes).

``resolve`` turns a name into one ``JudgeSpec``: a catalog entry, the same entry pointed at
another endpoint (``base_url``, or ``TJB_BASE_URL_<NAME>`` for the notebooks), or any name served
by an OpenAI-compatible server. ``build`` makes the judge a spec describes, through its
provider; ``get_judge`` does both with the provider found once, and is where a name becomes a
judge for the CLI and the runner (its rationale-writing variant included). Callers resolve once
and pass the spec or the judge down.
"""
from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

from tjb_lib.judges.base import Judge
from tjb_lib.judges.provider import JudgeSpec, Provider, get, registered

#: the provider of a name the catalog lacks, served at a given base URL
SERVED = "vllm"

def judges() -> dict[str, JudgeSpec]:
    """Every catalog judge by name, as the registered providers declare them."""
    return {s.name: s for p in registered().values() for s in p.judges}


def find_spec(name: str) -> JudgeSpec:
    """The catalog entry for ``name`` (case-insensitive); ValueError lists the known names."""
    known = judges()
    for key, spec in known.items():
        if key.lower() == name.lower():
            return spec
    raise ValueError(f"unknown judge {name!r}; known judges: {', '.join(known)} "
                     f"(or give base_url= for any OpenAI-compatible endpoint)")


def describe(name: str) -> dict[str, Any]:
    """Catalog facts for outputs/metadata/<judge>.json."""
    return find_spec(name).to_dict()


def base_url_env(name: str) -> str:
    """The environment variable that points a judge at an OpenAI-compatible server, so that
    notebooks (whose parameters are judge names) can use a vLLM-served open-weight judge:
    ``TJB_BASE_URL_QWEN2_5_14B_INSTRUCT_AWQ=http://localhost:8000/v1``."""
    return "TJB_BASE_URL_" + re.sub(r"\W", "_", name).upper()


def resolve(name: str, base_url: str | None = None, model: str | None = None) -> JudgeSpec:
    """What ``name`` will call, as one catalog-shaped entry.

    * a catalog name: its entry (``model`` may name another model of the same provider);
    * with ``base_url`` (or ``TJB_BASE_URL_<NAME>``): an API judge keeps its provider's rules
      at that endpoint (its key goes only to the provider's own host; elsewhere the judge reads
      ``OPENAI_COMPATIBLE_API_KEY``); an in-process judge becomes the model served there by an
      OpenAI-compatible (vLLM) server; any other name needs ``model``.

    The URL itself is checked once, when the judge is built.
    """
    return _resolve(name, base_url, model)[0]


def _resolve(name: str, base_url: str | None, model: str | None) -> tuple[JudgeSpec, Provider]:
    """``resolve``, with the provider the spec names (looked up once)."""
    base_url = base_url or os.environ.get(base_url_env(name)) or None
    try:
        spec: JudgeSpec | None = find_spec(name)
    except ValueError:
        if not base_url:
            raise
        spec = None
    if spec is None:
        if model is None:
            raise ValueError(f"judge {name!r} is not in the catalog: give model= for {base_url}")
        served = get(SERVED)
        return JudgeSpec(name, SERVED, model, "served", base_url=base_url,
                         params=dict(served.default_params)), served
    provider = get(spec.provider)
    if base_url is None:
        if model and provider.fixed_model:
            raise ValueError(f"{spec.name} is the model shipped with its provider "
                             f"{provider.name!r}; it takes no model= override (serve another "
                             "model and give base_url=)")
        return dataclasses.replace(spec, model=model or spec.model), provider
    if provider.served_by:
        served = get(provider.served_by)
        return dataclasses.replace(spec, provider=served.name, role="served",
                                   model=model or spec.model, base_url=base_url, device=None,
                                   params=dict(served.default_params)), served
    return dataclasses.replace(spec, model=model or spec.model, base_url=base_url), provider


def build(spec: JudgeSpec, **overrides: Any) -> Judge:
    """The judge ``spec`` describes, made by its provider. ``overrides`` go to the provider's
    builder (``params`` are merged into the entry's; ``budget`` caps API spending, by default the
    one ``--budget`` set through the environment)."""
    provider = get(spec.provider)
    return provider.build(spec, provider, **overrides)


def get_judge(name: str, base_url: str | None = None, model: str | None = None,
              rationales: bool = False, **overrides: Any) -> Judge:
    """``build(resolve(name, base_url, model), **overrides)``, the provider found once. With
    ``rationales`` an in-process judge writes its reasons, under its own name (an outputs folder
    beside the scored verdicts); API judges always return theirs."""
    spec, provider = _resolve(name, base_url, model)
    if rationales:
        if not provider.in_process:
            raise ValueError("--rationales is for local judges; API judges always return their "
                             "reason")
        spec = dataclasses.replace(spec, name=f"{spec.name}-rationales")
        overrides = {**overrides, "params": {"rationales": True}}
    return provider.build(spec, provider, **overrides)
