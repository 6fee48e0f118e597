"""The simulated judge (``tjb_lib.judges.simulated``): verdicts drawn at planted rates, for
planted-effect recovery in the tests and the methods section. It runs in this process, calls
nothing and costs nothing, and refuses to write into this checkout's outputs."""
from __future__ import annotations

from typing import Any

from tjb_lib.judges.provider import JudgeSpec, Price, Provider, register


def build(spec: JudgeSpec, provider: Provider, **overrides: Any):
    from tjb_lib.judges.simulated import build_simulated

    if spec.base_url:
        raise ValueError(f"{spec.name} is simulated and calls no server: it takes no base_url")
    return build_simulated(spec.name)


PROVIDER = register(Provider(
    name="simulated", backend="simulated", build=build, in_process=True, fixed_model=True,
    prices=(Price("planted-rates", input=0, cached_input=0, cache_write=0, output=0,
                  price_date="n/a", checked="n/a",
                  source="simulated judge: no model, no call, no per-token price"),),
    judges=(JudgeSpec("simulated", "simulated", "planted-rates", "simulated",
                      notes="Not a judge: verdicts drawn at planted rates (simulated: planted "
                            "rates), for checking that every table recovers what was planted. "
                            "Runs only with TJB_ROOT set to a folder outside this checkout."),),
))
