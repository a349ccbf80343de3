import re

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.models.reviews import Review
from tests.factories import csrf_token, make_product, make_user


def add(client, product, *, size="L", color="white", quantity=1, htmx=False):
    data = {"product_id": product.id, "color": color, "size": size, "quantity": quantity,
            "csrf_token": csrf_token(client, f"/products/{product.id}")}  # fmt: skip
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post("/cart/add", data=data, headers=headers)


def test_product_page_offers_add_to_cart_only_for_an_available_size(client):
    product = make_product("Oxford Shirt", sizes=("M", "L"), stock={"white/M": 0, "white/L": 3})

    no_size = client.get(f"/products/{product.id}").get_data(as_text=True)
    sold_out = client.get(f"/products/{product.id}?size=M").get_data(as_text=True)
    available = client.get(f"/products/{product.id}?size=L").get_data(as_text=True)

    assert re.search(r'<button class="button add-button" type="submit" disabled>Choose a size</button>', no_size)
    assert "disabled>Out of stock</button>" in sold_out
    assert '<button class="button add-button" type="submit">Add to cart</button>' in available
    assert '<option value="3">3</option>' in available and '<option value="4">4</option>' not in available


def test_add_to_cart_without_javascript_redirects_to_the_cart(client):
    product = make_product("Oxford Shirt", sizes=("L",), price="45.00")

    response = add(client, product, quantity=2)
    page = client.get("/cart").get_data(as_text=True)

    assert response.status_code == 303 and response.location.endswith("/cart")
    assert "Added Oxford Shirt (white / L) to your cart." in page
    assert "Oxford Shirt" in page and "$90.00" in page
    assert '<span id="cart-count" class="cart-count">2</span>' in page


def test_htmx_add_answers_a_status_and_an_out_of_band_badge(client):
    product = make_product("Oxford Shirt", sizes=("L",))

    response = add(client, product, quantity=3, htmx=True)
    html = response.get_data(as_text=True)

    assert response.status_code == 200 and response.headers["HX-Trigger"] == "cart-changed"
    assert "Added Oxford Shirt (White / L) to your cart." in html
    assert '<span id="cart-count" class="cart-count" hx-swap-oob="true">3</span>' in html
    assert "<html" not in html


def test_htmx_add_beyond_stock_shows_the_reason_and_adds_nothing(client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=1)

    response = add(client, product, quantity=2, htmx=True)

    assert response.status_code == 422
    assert "Only 1 left of Oxford Shirt (White / L)" in response.get_data(as_text=True)
    assert db.session.query(CartItem).count() == 0


def test_stepper_remove_and_clear_swap_the_cart_fragment(client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=9, price="10.00")
    add(client, product)
    item = db.session.query(CartItem).one()
    token = csrf_token(client, "/cart")
    htmx = {"HX-Request": "true"}

    plus = client.post(f"/cart/{item.id}/quantity", data={"quantity": 3, "csrf_token": token}, headers=htmx)
    too_many = client.post(f"/cart/{item.id}/quantity", data={"quantity": 11, "csrf_token": token}, headers=htmx)
    removed = client.post(f"/cart/{item.id}/remove", data={"csrf_token": token}, headers=htmx)

    assert plus.get_data(as_text=True).lstrip().startswith('<div id="cart"')
    assert "$30.00" in plus.get_data(as_text=True) and 'hx-swap-oob="true"' in plus.get_data(as_text=True)
    assert too_many.status_code == 422 and "from 1 to 10" in too_many.get_data(as_text=True)
    assert "Your cart is empty" in removed.get_data(as_text=True)
    assert db.session.query(CartItem).count() == 0


def test_a_guest_cart_follows_the_shopper_into_their_account(client):
    product = make_product("Oxford Shirt", sizes=("L",))
    make_user("sam@example.com")
    add(client, product, quantity=2)

    client.post("/login", data={"email": "sam@example.com", "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip

    [line] = db.session.query(CartItem).all()
    assert line.user_id is not None and line.guest_id is None and line.quantity == 2
    assert "Oxford Shirt" in client.get("/cart").get_data(as_text=True)


def test_someone_elses_cart_line_cannot_be_changed(client, app):
    product = make_product(sizes=("L",))
    add(client, product)
    item = db.session.query(CartItem).one()
    stranger = app.test_client()

    response = stranger.post(f"/cart/{item.id}/quantity", data={"quantity": 5, "csrf_token": csrf_token(stranger, "/cart")},
                             headers={"HX-Request": "true"})  # fmt: skip

    assert response.status_code == 404
    db.session.expire_all()
    assert db.session.query(CartItem).one().quantity == 1


def test_review_posted_with_htmx_is_escaped_and_updates_the_list(client):
    product = make_product("Oxford Shirt", rating="0.0", rating_count=0)
    data = {"rating": "4", "comment": "<script>alert('x')</script> Lovely", "user_name": "Gina <b>",
            "csrf_token": csrf_token(client, f"/products/{product.id}")}  # fmt: skip

    response = client.post(f"/products/{product.id}/reviews", data=data, headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)

    assert html.lstrip().startswith('<section id="reviews"')
    assert "Thanks for your review!" in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Lovely" in html and "<script>alert" not in html
    assert "Gina &lt;b&gt;" in html
    assert db.session.query(Review).one().rating == 4


def test_review_errors_re_render_the_form(client):
    product = make_product()
    data = {"rating": "4", "comment": "Nice", "csrf_token": csrf_token(client, f"/products/{product.id}")}

    response = client.post(f"/products/{product.id}/reviews", data=data, headers={"HX-Request": "true"})

    assert response.status_code == 422
    assert "Please add your name" in response.get_data(as_text=True)
    assert db.session.query(Review).count() == 0


def test_compare_tray_and_page(client):
    a = make_product("Alpha Shirt", price="30.00")
    b = make_product("Beta Shirt", price="20.00")
    token = csrf_token(client, "/catalog")

    first = client.post(f"/compare/{a.id}", data={"csrf_token": token}, headers={"HX-Request": "true"})
    client.post(f"/compare/{b.id}", data={"csrf_token": token}, headers={"HX-Request": "true"})
    page = client.get("/compare").get_data(as_text=True)
    removed = client.post(f"/compare/{a.id}", data={"csrf_token": token})

    assert "✓ Comparing" in first.get_data(as_text=True)
    assert '<div id="compare-tray" class="compare-tray" hx-swap-oob="true"' in first.get_data(as_text=True)
    assert "Alpha Shirt" in page and "Beta Shirt" in page
    assert re.search(r'<td class="best">\$20\.00</td>', page)
    assert removed.status_code == 303
    assert "Pick at least two products" in client.get("/compare").get_data(as_text=True)


def test_save_to_wishlist_from_the_product_page(client):
    product = make_product("Wool Coat", clothing_type="coat")
    make_user("sam@example.com")
    client.post(
        "/login",
        data={
            "email": "sam@example.com",
            "password": "correct horse battery",
            "csrf_token": csrf_token(client, "/login"),
        },
    )
    token = csrf_token(client, f"/products/{product.id}")

    saved = client.post(f"/wishlist/{product.id}", data={"csrf_token": token}, headers={"HX-Request": "true"})
    listing = client.get("/wishlist").get_data(as_text=True)

    assert "♥ Saved" in saved.get_data(as_text=True)
    assert "Wool Coat" in listing
    assert "♡ Save" in client.post(
        f"/wishlist/{product.id}", data={"csrf_token": token}, headers={"HX-Request": "true"}
    ).get_data(as_text=True)
