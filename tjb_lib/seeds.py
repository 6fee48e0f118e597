"""The compendium's seed, declared once: the split build, the notebooks' bootstraps and the
example and simulation draws start from it unless a run names another (each notebook's
``parameters`` cell shows it as its default, which the tests hold to this one)."""

SEED = 20260923
