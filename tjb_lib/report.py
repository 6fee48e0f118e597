"""Writing tables (CSV + Markdown) and figures (PNG + SVG) under the paper's float names."""
from __future__ import annotations

from pathlib import Path

import matplotlib
import pandas as pd

from tjb_lib import paths


def paper_table(name: str) -> pd.DataFrame:
    """A table as the paper printed it (data/paper_reported/<name>*.csv)."""
    matches = sorted(paths.PAPER_REPORTED.glob(f"{name}*.csv"))
    if len(matches) != 1:
        raise FileNotFoundError(f"expected one reported table named {name}* in "
                                f"{paths.PAPER_REPORTED}, found {[m.name for m in matches]}")
    return pd.read_csv(matches[0])


def write_table(df: pd.DataFrame, name: str, out_dir: Path | None = None) -> tuple[Path, Path]:
    """Write ``<name>.csv`` and ``<name>.md``; Markdown shows four significant digits, so a
    rate reads 85.83 and an agreement coefficient 0.84 (the CSV keeps every digit)."""
    out_dir = Path(out_dir or paths.TABLES)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out_dir / f"{name}.csv", out_dir / f"{name}.md"
    df.to_csv(csv_path, index=False, lineterminator="\n")
    md_path.write_text(df.to_markdown(index=False, floatfmt=".4g") + "\n", encoding="utf-8")
    return csv_path, md_path


def save_figure(fig, name: str, out_dir: Path | None = None) -> tuple[Path, Path]:
    """Save a matplotlib figure as PNG and SVG with fixed metadata (byte-stable reruns)."""
    out_dir = Path(out_dir or paths.FIGURES)
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=150, bbox_inches="tight", metadata={"Software": None})
    with matplotlib.rc_context({"svg.hashsalt": name}):  # stable element ids across reruns
        fig.savefig(svg, bbox_inches="tight", metadata={"Date": None, "Creator": None})
    return png, svg
