"""The paper layer: one entry per float and in-text number, our values beside the paper's, written tables, figures and REPORT.md."""
