"""Judges behind one interface (``base.Judge``): one module per provider in ``providers/``,
registered by name (``provider``), and the catalog that names the paper's judges."""
