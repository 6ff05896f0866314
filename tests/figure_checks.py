"""What the layout tests check on a drawn figure: no text outside it, no two panels' labels
over each other (shared by the explorers' and lecture mode's layout tests)."""

from __future__ import annotations

import itertools

from matplotlib.axes import Axes
from matplotlib.figure import Figure


def panels(fig: Figure) -> list[Axes]:
    """One axes per cell (twin axes share their host's cell)."""
    seen, out = [], []
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        key = (id(spec.get_gridspec()), spec.rowspan, spec.colspan)
        if key not in seen:
            seen.append(key)
            out.append(ax)
    return out


def clipped_texts(fig: Figure) -> list[str]:
    """Panels whose drawn decorations (tick labels, axis labels, title, legend, texts) reach
    outside the figure, with 1 px of slack; and figure-level texts that do."""
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    extents = [(ax.get_title() or ax.get_ylabel() or ax.get_xlabel() or "a panel",
                ax.get_tightbbox(renderer)) for ax in fig.axes if ax.get_visible()]
    extents += [(getattr(a, "get_text", lambda: "legend")(), a.get_window_extent(renderer))
                for a in (*fig.texts, *fig.legends) if a.get_visible()]
    return [f"{label!r} at {tuple(round(v) for v in extent.extents)}"
            for label, extent in extents
            if extent is not None and (extent.x0 < box.x0 - 1 or extent.y0 < box.y0 - 1
                                       or extent.x1 > box.x1 + 1 or extent.y1 > box.y1 + 1)]


def overlapping_panels(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of panels (by title or label) whose drawn extents overlap by more than 2 px."""
    renderer = fig.canvas.get_renderer()
    boxes = [(ax.get_title() or ax.get_ylabel() or str(i), ax.get_tightbbox(renderer))
             for i, ax in enumerate(panels(fig))]
    out = []
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        overlap_x = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        overlap_y = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if overlap_x > 2 and overlap_y > 2:
            out.append((a, b))
    return out
