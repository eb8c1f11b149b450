"""Fixed-width tables that the benchmarks print as their rows come in."""

import numpy as np


def format_line(cells, columns, left, spec=True):
    """`cells` as a line of `columns`, ``(title, key, width, format)`` each; NaN left blank.

    The cells at the positions in `left` are aligned left, the others right;
    with ``spec=False`` the formats are not applied (a line of titles).
    """
    parts = []
    for i, (cell, (_, _, width, fmt)) in enumerate(zip(cells, columns)):
        if isinstance(cell, float) and np.isnan(cell):
            cell, fmt = "", ""
        parts.append(f"{cell:{'<' if i in left else '>'}{width}{fmt if spec else ''}}")
    return " ".join(parts)
