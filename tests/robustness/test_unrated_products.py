"""New products without ratings show no empty stars (issue 12 item 20)."""

from tests.factories import make_product


def test_an_unrated_product_says_it_is_new_instead_of_showing_empty_stars(client):
    product = make_product("Fresh Linen Shirt", rating="0", rating_count=0)

    card = client.get("/catalog?q=fresh+linen").get_data(as_text=True)
    page = client.get(f"/products/{product.id}").get_data(as_text=True)

    for html in (card, page):
        assert "New — no reviews yet" in html and "☆☆☆☆☆" not in html
