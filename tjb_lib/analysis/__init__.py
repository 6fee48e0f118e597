"""Statistics and metrics computed from verdict rows: rates, intervals, tests, the tie-threshold frontier, power, rationale checks."""
