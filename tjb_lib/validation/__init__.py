"""Human validation (paper §4, App. B): blind annotation workbooks out, labels in, and the agreement statistics of Table 2."""
