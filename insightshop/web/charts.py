"""Small server-rendered SVG charts for the dashboard (no scripts, no CDN; text is escaped)."""

from __future__ import annotations

from decimal import Decimal

from markupsafe import Markup, escape

BAR = "#1f2a44"
ACCENT = "#c8553d"


def bar_chart(points: list[tuple[str, Decimal | int]], *, width: int = 760, height: int = 220, label_every: int = 5,
              title: str = "") -> Markup:  # fmt: skip
    """Vertical bars with a y-axis maximum, x labels every few bars and a tooltip per bar."""
    top = max((float(v) for _, v in points), default=0) or 1.0
    left, bottom, usable_h = 48, 24, height - 40
    step = (width - left - 8) / max(1, len(points))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" aria-label="{escape(title)}">',
             f'<title>{escape(title)}</title>',
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - 4}" y2="{height - bottom}" stroke="#c9c6bf"/>',
             f'<text x="{left - 6}" y="14" text-anchor="end" font-size="11" fill="#6f7687">{top:,.0f}</text>',
             f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end" font-size="11" fill="#6f7687">0</text>']  # fmt: skip
    for index, (label, value) in enumerate(points):
        bar_h = usable_h * float(value) / top
        x = left + index * step + step * 0.15
        y = height - bottom - bar_h
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{step * 0.7:.1f}" height="{bar_h:.1f}" rx="2" fill="{BAR}">'
                     f'<title>{escape(label)}: {float(value):,.2f}</title></rect>')  # fmt: skip
        if index % label_every == 0:
            parts.append(
                f'<text x="{x + step * 0.35:.1f}" y="{height - 8}" text-anchor="middle" font-size="10" fill="#6f7687">{escape(label)}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def horizontal_bars(points: list[tuple[str, int]], *, width: int = 360, title: str = "") -> Markup:
    """One labelled horizontal bar per value (orders by status)."""
    top = max((v for _, v in points), default=0) or 1
    row, label_w = 26, 90
    height = row * len(points) + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for index, (label, value) in enumerate(points):
        y = 4 + index * row
        bar_w = (width - label_w - 40) * value / top
        parts.append(f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end" font-size="12" fill="#1d2333">{escape(label)}</text>'
                     f'<rect x="{label_w}" y="{y + 3}" width="{bar_w:.1f}" height="16" rx="3" fill="{ACCENT}"/>'
                     f'<text x="{label_w + bar_w + 6:.1f}" y="{y + 15}" font-size="12" fill="#4a5266">{value}</text>')  # fmt: skip
    parts.append("</svg>")
    return Markup("".join(parts))
