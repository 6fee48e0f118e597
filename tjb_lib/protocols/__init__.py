"""Judge protocols: the L0–L4 single-call ladder (with paraphrases), two-call TRACE (v1, v2)
and one-call TRACE-lite. They turn (pair, order, protocol setting) into judge requests and the
replies into one verdict row per ordered comparison."""
from tjb_lib.protocols.requests import build_request, shown_sides
from tjb_lib.protocols.run import ordered_comparisons, run_comparison
from tjb_lib.protocols.specs import CLI_NAMES, LEVELS, PROTOCOLS, Spec, expand, template_names
from tjb_lib.protocols.templates import available_templates, load_template
from tjb_lib.records import ORDERS, request_key

__all__ = ["CLI_NAMES", "LEVELS", "ORDERS", "PROTOCOLS", "Spec", "available_templates",
           "build_request", "expand", "load_template", "ordered_comparisons", "request_key",
           "run_comparison", "shown_sides", "template_names"]
