"""Product imagery (issue 12 item 20): a picture per colour and a close-up on the product page, without JavaScript
too, and home grids cut to whole rows."""

import html as html_lib
import re
from datetime import timedelta
from decimal import Decimal

from tests.factories import make_product


def _attributes(tag: str) -> dict[str, str]:
    return {name: html_lib.unescape(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', tag)}


def _gallery(html: str) -> list[dict[str, str]]:
    """The gallery's thumbnails: the link's attributes plus its picture (src) and accessible name (the image's alt)."""
    thumbs = []
    for link, image in re.findall(r'(<a [^>]*class="gallery-thumb"[^>]*>)(<img [^>]*>)</a>', html):
        picture = _attributes(image)
        thumbs.append(_attributes(link) | {"src": picture["src"], "name": picture["alt"]})
    return thumbs


def _main_picture(html: str) -> dict[str, str]:
    return _attributes(re.search(r'<div [^>]*class="product-picture"[^>]*>(<img [^>]*>)', html).group(1))


def _four_colour_shirt():
    return make_product("Oxford Shirt", color="white", colors=("white", "navy", "green", "red"), sizes=("M", "L"))


def test_the_gallery_has_a_picture_per_colour_then_the_close_up(client):
    product = _four_colour_shirt()

    html = client.get(f"/products/{product.id}").get_data(as_text=True)
    thumbs = _gallery(html)

    assert [t["name"] for t in thumbs] == ["White", "Navy", "Green", "Red", "Close-up"]
    assert [t["src"] for t in thumbs[:4]] == [
        f"/products/{product.id}/image.svg?color={color}" for color in ("white", "navy", "green", "red")
    ]
    assert thumbs[1]["href"] == f"/products/{product.id}?color=navy"  # a plain link: works without JavaScript
    assert thumbs[1]["hx-get"] == thumbs[1]["href"] and thumbs[1]["hx-target"] == "#product-main"
    assert thumbs[4]["src"] == f"/products/{product.id}/image.svg?color=white&view=close-up"
    assert [t.get("aria-current") for t in thumbs] == ["true", None, None, None, None]
    assert len({t["id"] for t in thumbs}) == 5  # ids keep keyboard focus on the thumbnail across htmx swaps
    assert _main_picture(html)["alt"] == "Oxford Shirt in White"


def test_a_colour_in_the_address_is_shown_big_marked_current_and_goes_into_the_cart_form(client):
    product = _four_colour_shirt()

    html = client.get(f"/products/{product.id}?color=navy&size=L").get_data(as_text=True)
    thumbs = _gallery(html)

    assert _main_picture(html)["src"] == f"/products/{product.id}/image.svg?color=navy"
    assert _main_picture(html)["alt"] == "Oxford Shirt in Navy"
    assert [t["name"] for t in thumbs if t.get("aria-current")] == ["Navy"]
    assert thumbs[2]["href"] == f"/products/{product.id}?color=green&size=L"  # the chosen size stays
    assert re.search(r'class="color-option selected" href="[^"]*color=navy', html)
    assert '<input type="hidden" name="color" value="navy">' in html


def test_an_unknown_colour_or_view_is_ignored_and_the_first_colour_shown(client):
    product = _four_colour_shirt()

    for query in ("color=chartreuse", "color=%3Cscript%3E", "color=", "view=back", "view=close-up&color=nope"):
        response = client.get(f"/products/{product.id}?{query}")
        html = response.get_data(as_text=True)

        assert response.status_code == 200, query
        assert "chartreuse" not in html and "<script>" not in html and "nope" not in html
        expected = "white&view=close-up" if "close-up" in query else "white"
        assert _main_picture(html)["src"] == f"/products/{product.id}/image.svg?color={expected}", query


def test_the_close_up_is_shown_big_and_the_pickers_keep_it(client):
    product = _four_colour_shirt()

    html = client.get(f"/products/{product.id}?color=red&view=close-up").get_data(as_text=True)
    thumbs = _gallery(html)

    assert _main_picture(html)["src"] == f"/products/{product.id}/image.svg?color=red&view=close-up"
    assert _main_picture(html)["alt"] == "Oxford Shirt in Red, close-up"
    assert [t["name"] for t in thumbs if t.get("aria-current")] == ["Close-up"]
    assert thumbs[1]["href"] == f"/products/{product.id}?color=navy"  # a colour's thumbnail shows the whole garment
    assert f'href="/products/{product.id}?color=navy&amp;view=close-up"' in html  # the colour picker keeps the view
    assert f'href="/products/{product.id}?color=red&amp;size=M&amp;view=close-up"' in html  # so do the sizes


def test_one_picture_makes_no_gallery_one_colour_with_a_close_up_makes_two(client):
    tee = make_product("Pocket Tee", clothing_type="t-shirt", color="black")
    jeans = make_product("Selvedge Jeans", clothing_type="jeans", color="blue")

    tee_html = client.get(f"/products/{tee.id}").get_data(as_text=True)
    jeans_html = client.get(f"/products/{jeans.id}").get_data(as_text=True)

    assert _gallery(tee_html) == [] and 'class="gallery"' not in tee_html
    assert _main_picture(tee_html)["src"] == f"/products/{tee.id}/image.svg?color=black"
    assert [t["name"] for t in _gallery(jeans_html)] == ["Blue", "Close-up"]
    assert client.get(f"/products/{tee.id}?view=close-up").status_code == 200  # a view it lacks is ignored


def test_the_htmx_fragment_carries_the_gallery(htmx_client):
    product = _four_colour_shirt()

    html = htmx_client.get(f"/products/{product.id}?color=green").get_data(as_text=True)

    assert html.lstrip().startswith('<div id="product-main"')
    assert [t["id"] for t in _gallery(html) if t.get("aria-current")] == ["picture-green"]
    # the rating swaps in place with the rest; out of band it would be lifted out and lost from the page
    assert '<div id="product-rating">' in html and "hx-swap-oob" not in html


def test_the_picture_route_serves_close_ups_only_of_garments_that_have_one(client):
    shirt = _four_colour_shirt()
    tee = make_product("Pocket Tee", clothing_type="t-shirt")

    close_up = client.get(f"/products/{shirt.id}/image.svg?color=navy&view=close-up")

    assert close_up.status_code == 200 and close_up.mimetype == "image/svg+xml"
    assert 'viewBox="0 0 400 400"' not in close_up.get_data(as_text=True)
    assert client.get(f"/products/{shirt.id}/image.svg?color=navy&view=back").status_code == 404
    assert client.get(f"/products/{tee.id}/image.svg?view=close-up").status_code == 404
    assert client.get(f"/products/{tee.id}/image.svg?view=front").status_code == 200


def _home_sections(html: str) -> dict[str, int]:
    """Cards per home grid, by the section's title."""
    counts = {}
    for section in html.split("<section")[1:]:
        title = re.search(r'<h2 class="section-title">([^<]+)</h2>', section)
        if title and 'class="grid grid--rows"' in section:
            counts[title.group(1)] = section.count('<article class="card">')
    return counts


def test_home_grids_show_whole_rows_of_four(client):
    from insightshop.extensions import db
    from insightshop.models.sales import Sale
    from insightshop.services import pricing

    for number in range(6):
        make_product(f"Favourite Shirt {number}", is_featured=True)
    for number in range(5):
        make_product(f"Sale Sweater {number}", clothing_type="sweater")
    make_product("Sale Hoodie", clothing_type="hoodie")
    today = pricing.today()
    db.session.add(Sale(name="Knit Week", discount_percentage=Decimal("20"), is_active=True, clothing_types=["hoodie"],
                        start_date=today - timedelta(days=1), end_date=today + timedelta(days=3)))  # fmt: skip
    db.session.commit()

    counts = _home_sections(client.get("/").get_data(as_text=True))

    # 6 featured → 4; 12 products → the 8 newest; a single product on sale stays (one row, nothing orphaned)
    assert counts == {"On sale now": 1, "Customer favourites": 4, "Just landed": 8}


def test_whole_rows_keeps_multiples_of_four_and_short_single_rows(app):
    from insightshop.web.display import whole_rows

    with app.test_request_context():
        kept = {n: len(whole_rows([make_product(f"Shirt {n}-{i}") for i in range(n)])) for n in (0, 1, 2, 3, 5, 8, 9)}

    assert kept == {0: 0, 1: 1, 2: 2, 3: 2, 5: 4, 8: 8, 9: 8}
