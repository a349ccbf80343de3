"""New products without ratings show no empty stars (issue 12 item 20)."""

from tests.factories import make_product


def test_an_unrated_product_says_it_is_new_instead_of_showing_empty_stars(client):
    product = make_product("Fresh Linen Shirt", rating="0", rating_count=0)

    card = client.get("/catalog?q=fresh+linen").get_data(as_text=True)
    page = client.get(f"/products/{product.id}").get_data(as_text=True)

    for html in (card, page):
        assert "New — no reviews yet" in html and "☆☆☆☆☆" not in html


def test_a_counted_review_updates_the_header_rating_in_the_same_htmx_answer(client):
    from insightshop.services.actors import Actor
    from tests.factories import csrf_token, make_paid_order, make_user

    product = make_product("Rated Shirt", rating="0", rating_count=0)
    make_paid_order(Actor(user=make_user("buyer@example.com")), product)  # a verified purchase counts
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "buyer@example.com", "password": "correct horse battery", "csrf_token": token})
    token = csrf_token(client, f"/products/{product.id}")

    response = client.post(f"/products/{product.id}/reviews", headers={"HX-Request": "true"},
                           data={"rating": "4", "comment": "Good shirt", "csrf_token": token})  # fmt: skip

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert (
        'id="product-rating" hx-swap-oob="true"' in html
        and '4.0<span class="visually-hidden"> out of 5</span> · ' in html
        and ">1 review<" in html
    )
