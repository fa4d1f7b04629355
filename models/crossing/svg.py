"""A storyboard picture of a plan: one row per step, both sides and the vehicle."""

from __future__ import annotations

from html import escape

from .problem import Move

ROW = 34
WIDTH = 1000
SIDE = 330


def _names(content: dict[str, int]) -> str:
    parts = [name if n == 1 else f"{name} x{n}" for name, n in content.items()]
    return ", ".join(parts) if parts else "-"


def _text(
    x: float, y: float, text: str, anchor: str = "start", size: int = 13, weight: str = "normal"
) -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" '
        f'font-weight="{weight}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def storyboard(title: str, river: bool, banks: list[dict], plan: list[Move]) -> str:
    """The SVG text: row 0 is the start, row i the banks after step i, with
    the load of step i drawn on the water (or in the baskets) between them."""
    near_label, far_label = ("left bank", "right bank") if river else ("tower top", "ground")
    height = 70 + ROW * len(banks)
    mid_left, mid_right = 40 + SIDE, WIDTH - SIDE - 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        _text(10, 22, title, size=16, weight="bold"),
        _text(40, 48, near_label, weight="bold"),
        _text(WIDTH - 10, 48, far_label, "end", weight="bold"),
        f'<rect x="{mid_left}" y="56" width="{mid_right - mid_left}" height="{ROW * len(banks)}" '
        f'fill="{"#cfe8ff" if river else "#eeeeee"}"/>',
    ]
    for i, bank in enumerate(banks):
        y = 56 + ROW * i + 22
        out.append(_text(10, y, f"{i}", weight="bold"))
        out.append(_text(40, y, _names(bank["near"])))
        out.append(_text(WIDTH - 10, y, _names(bank["far"]), "end"))
        if i == 0:
            continue
        move = plan[i - 1]
        if river:
            load = ", ".join(move.to_far or move.to_near)
            arrow = "  →" if move.to_far else "←  "
            label = f"{load} {arrow}" if move.to_far else f"{arrow} {load}"
            x = mid_right - 6 if move.to_far else mid_left + 6
            out.append(
                f'<rect x="{mid_left + 4}" y="{y - 15}" width="{mid_right - mid_left - 8}" '
                f'height="20" rx="8" fill="#a0522d" opacity="0.25"/>'
            )
            out.append(_text(x, y, label, "end" if move.to_far else "start"))
        else:
            down = ", ".join(move.to_far) or "empty"
            up = ", ".join(move.to_near) or "empty"
            out.append(_text((mid_left + mid_right) / 2, y, f"↓ {down}   ↑ {up}", "middle"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
