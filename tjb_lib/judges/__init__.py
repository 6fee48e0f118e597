"""Judge backends behind one interface (see base.Judge) and the catalog that names them."""
