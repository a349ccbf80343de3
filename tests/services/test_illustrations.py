"""The generated product pictures: the whole garment, and a close-up for garments with details worth a closer look."""

import re

import pytest

from insightshop.services.illustrations import has_close_up, render_product_svg


def _view_box(svg: str) -> str:
    return re.search(r'viewBox="([^"]+)"', svg).group(1)


def test_a_close_up_frames_part_of_the_same_drawing_with_lighter_outlines():
    front = render_product_svg("shirt", "navy")
    close_up = render_product_svg("shirt", "navy", view="close-up")

    assert _view_box(front) == "0 0 400 400"
    x, y, width, height = (float(n) for n in _view_box(close_up).split())
    assert min(x, y) >= 0 and width == height and x + width <= 400 and y + height <= 400 and width < 300
    assert "<title>Navy shirt, close-up</title>" in close_up
    widest = max(float(w) for w in re.findall(r'stroke-width="([\d.]+)"', close_up))
    assert widest < max(float(w) for w in re.findall(r'stroke-width="([\d.]+)"', front))


def test_plain_garments_have_no_close_up_and_unknown_views_are_refused():
    assert has_close_up("jeans") and has_close_up("Sneaker")
    assert not has_close_up("t-shirt") and not has_close_up("scarf")

    with pytest.raises(ValueError):
        render_product_svg("t-shirt", "white", view="close-up")
    with pytest.raises(ValueError):
        render_product_svg("shirt", "white", view="back")
