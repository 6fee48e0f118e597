"""TraceJudgeBench compendium: splits, judge protocols, judges, metrics and statistics."""
__version__ = "0.1.0"
