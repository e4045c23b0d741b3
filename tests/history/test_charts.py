"""The SVG chart helper: reduction keeps extremes and ends, coordinates stay inside, text is escaped."""

from __future__ import annotations

import re

import pytest

from history.charts import line_chart, reduce_series

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = pytest.mark.usefixtures("english")


def _points(svg: str) -> list[tuple[float, float]]:
    raw = re.search(r'<polyline[^>]* points="([^"]+)"', svg).group(1)
    return [tuple(map(float, p.split(","))) for p in raw.split()]


def test_short_series_is_drawn_point_for_point():
    svg = str(line_chart([0, 5, -3, 2], label="b"))
    pts = _points(svg)
    assert len(pts) == 4
    xs = [x for x, _ in pts]
    assert xs == sorted(xs)
    ys = [y for _, y in pts]
    assert ys.index(min(ys)) == 1 and ys.index(max(ys)) == 2  # highest value drawn highest (smallest y)
    assert 'aria-label="b: 4 points, from 0 to 2, low -3, high 5"' in svg
    assert "chart-zero" in svg


def test_long_series_is_reduced_but_keeps_the_extremes_and_the_ends():
    values = [((i * 7919) % 1000) - 500 for i in range(10_000)]
    values[6543] = 99_999
    values[1234] = -99_999
    kept = reduce_series(values, 400)
    assert len(kept) <= 400
    idx = [i for i, _ in kept]
    assert idx == sorted(idx) and idx[0] == 0 and idx[-1] == len(values) - 1
    assert 6543 in idx and 1234 in idx
    svg = str(line_chart(values, label="x", width=600, height=200))
    for x, y in _points(svg):
        assert 0 <= x <= 600 and 0 <= y <= 200


def test_empty_series_says_so_and_labels_are_escaped():
    assert "No data yet" in str(line_chart([], label="r"))
    assert "<script>" not in str(line_chart([1, 2], label="<script>"))


def test_flat_series_does_not_divide_by_zero():
    pts = _points(str(line_chart([3, 3, 3], label="f", zero_line=False)))
    assert len({y for _, y in pts}) == 1
