"""Server-rendered SVG line charts (no external chart service, no JavaScript).

A long series is reduced to at most `max_points` points by keeping, in each bucket, its first, lowest,
highest and last values in order, so peaks and the final value survive the reduction.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def reduce_series(values: Sequence[float], max_points: int = 400) -> list[tuple[int, float]]:
    """(index, value) pairs, at most about `max_points`, keeping each bucket's extremes and ends."""
    n = len(values)
    if n <= max_points:
        return list(enumerate(values))
    buckets = max(1, max_points // 4)
    size = n / buckets
    out: list[tuple[int, float]] = []
    for b in range(buckets):
        lo, hi = int(b * size), min(n, int((b + 1) * size))
        if lo >= hi:
            continue
        chunk = range(lo, hi)
        low = min(chunk, key=values.__getitem__)
        high = max(chunk, key=values.__getitem__)
        for i in sorted({lo, low, high, hi - 1}):
            out.append((i, values[i]))
    return out


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def line_chart(
    values: Sequence[float],
    *,
    label: str,
    width: int = 640,
    height: int = 180,
    max_points: int = 400,
    zero_line: bool = True,
) -> SafeString:
    """An accessible `<svg>` line chart of `values` in order (x: index, y: value)."""
    if not values:
        return format_html('<p class="chart-empty" data-chart="{}">{}</p>', label, _("暂无数据"))
    pad = 28
    points = reduce_series(values, max_points)
    low, high = min(values), max(values)
    if zero_line:
        low, high = min(low, 0), max(high, 0)
    span = (high - low) or 1
    last = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / last

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / span

    coords = " ".join(f"{_fmt(x(i))},{_fmt(y(v))}" for i, v in points)
    parts = [
        format_html(
            '<svg class="chart" data-chart="{}" viewBox="0 0 {} {}" width="{}" height="{}" role="img" '
            'aria-label="{}">',
            label,
            width,
            height,
            width,
            height,
            _("%(label)s：%(n)s 个点，从 %(first)s 到 %(last)s，最低 %(low)s，最高 %(high)s")
            % {
                "label": label,
                "n": len(values),
                "first": _fmt(values[0]),
                "last": _fmt(values[-1]),
                "low": _fmt(min(values)),
                "high": _fmt(max(values)),
            },
        ),
        format_html("<title>{}</title>", label),
    ]
    if zero_line and low < 0 < high:
        parts.append(
            format_html(
                '<line class="chart-zero" x1="{}" x2="{}" y1="{}" y2="{}" stroke="#999" stroke-dasharray="4 3"/>',
                pad,
                width - pad,
                _fmt(y(0)),
                _fmt(y(0)),
            )
        )
    parts.append(
        format_html(
            '<polyline class="chart-line" fill="none" stroke="#b0302a" stroke-width="1.5" points="{}"/>',
            coords,
        )
    )
    parts.append(
        format_html(
            '<text x="2" y="{}" font-size="11">{}</text><text x="2" y="{}" font-size="11">{}</text>'
            '<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>',
            pad - 10,
            _fmt(high),
            height - pad + 14,
            _fmt(low),
            width - pad,
            height - 6,
            len(values),
        )
    )
    parts.append(mark_safe("</svg>"))
    return mark_safe("".join(parts))
