import pytest

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_product, make_user


@pytest.fixture
def shirt():
    return make_product("Oxford Shirt", colors=("white", "navy"), sizes=("M", "L"), stock=4, price="49.50")


def test_guest_fills_a_cart_through_the_api(client, shirt):
    headers = guest_bearer(client)

    added = client.post("/api/cart", headers=headers,
                        json={"product_id": shirt.id, "quantity": 2, "selected_color": "white", "selected_size": "large"})  # fmt: skip
    item = added.get_json()["item"]
    updated = client.patch(f"/api/cart/{item['id']}", headers=headers, json={"quantity": 3})
    shown = client.get("/api/cart", headers=headers).get_json()["cart"]

    assert added.status_code == 201
    assert (item["color"], item["size"], item["unit_price"], item["line_total"]) == ("white", "L", "49.50", "99.00")
    assert updated.get_json()["item"]["quantity"] == 3
    assert (shown["item_count"], shown["subtotal"]) == (3, "148.50")
    assert client.delete(f"/api/cart/{item['id']}", headers=headers).get_json()["cart"]["items"] == []


def test_clear_empties_only_the_callers_cart(client, shirt):
    make_user("a@example.com")
    make_user("b@example.com")
    alice, bob = bearer(client, "a@example.com"), bearer(client, "b@example.com")
    client.post(
        "/api/cart", headers=alice, json={"product_id": shirt.id, "selected_color": "navy", "selected_size": "M"}
    )
    client.post("/api/cart", headers=bob, json={"product_id": shirt.id, "selected_color": "navy", "selected_size": "L"})

    response = client.delete("/api/cart/clear", headers=alice)

    assert response.get_json()["removed"] == 1
    assert client.get("/api/cart", headers=bob).get_json()["cart"]["item_count"] == 1


def test_another_owners_line_is_404_and_unchanged(client, shirt):
    make_user("a@example.com")
    alice = bearer(client, "a@example.com")
    item = client.post("/api/cart", headers=alice,
                       json={"product_id": shirt.id, "selected_color": "navy", "selected_size": "M"}).get_json()["item"]  # fmt: skip
    intruder = guest_bearer(client)

    assert_error(client.patch(f"/api/cart/{item['id']}", headers=intruder, json={"quantity": 2}), 404, "not_found")
    assert_error(client.delete(f"/api/cart/{item['id']}", headers=intruder), 404, "not_found")
    assert db.session.get(CartItem, item["id"]).quantity == 1


def test_cart_needs_an_identity(client, shirt):
    assert_error(client.get("/api/cart"), 401, "unauthorized")
    assert_error(client.post("/api/cart", json={"product_id": shirt.id}), 401, "unauthorized")


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"quantity": 1}, 400, "validation_error", "product_id"),
        ({"product_id": 1, "quantity": 11}, 400, "validation_error", "quantity"),
        ({"product_id": 1, "quantity": 0}, 400, "validation_error", "quantity"),
        ({"product_id": 1, "price": "0.01"}, 400, "validation_error", "price"),
        ({"product_id": "one"}, 400, "validation_error", "product_id"),
        ({"product_id": 1, "selected_color": "white"}, 400, "variant_required", "selected_size"),
        ({"product_id": 999}, 404, "not_found", None),
        ({"product_id": 1, "quantity": 5, "selected_color": "white", "selected_size": "M"}, 409, "out_of_stock", None),
    ],
)
def test_add_to_cart_rejects_bad_requests(client, shirt, body, status, code, field):
    headers = guest_bearer(client)
    assert_error(client.post("/api/cart", headers=headers, json=body), status, code, field)
    assert db.session.query(CartItem).count() == 0


def test_patch_validates_quantity_and_stock(client, shirt):
    headers = guest_bearer(client)
    item = client.post("/api/cart", headers=headers,
                       json={"product_id": shirt.id, "selected_color": "navy", "selected_size": "M"}).get_json()["item"]  # fmt: skip

    assert_error(
        client.patch(f"/api/cart/{item['id']}", headers=headers, json={"quantity": 12}),
        400,
        "validation_error",
        "quantity",
    )
    assert_error(client.patch(f"/api/cart/{item['id']}", headers=headers, json={"quantity": 9}), 409, "out_of_stock")
    assert_error(client.patch(f"/api/cart/{item['id']}", headers=headers, data="x"), 415, "unsupported_media_type")


def test_logging_in_with_a_guest_token_merges_the_guest_cart(client, shirt):
    make_user("sam@example.com")
    guest = guest_bearer(client)
    client.post(
        "/api/cart",
        headers=guest,
        json={"product_id": shirt.id, "quantity": 2, "selected_color": "navy", "selected_size": "L"},
    )

    login = client.post(
        "/api/auth/login", headers=guest, json={"email": "sam@example.com", "password": "correct horse battery"}
    )
    user = {"Authorization": f"Bearer {login.get_json()['token']}"}

    assert client.get("/api/cart", headers=user).get_json()["cart"]["item_count"] == 2
    assert client.get("/api/cart", headers=guest).get_json()["cart"]["item_count"] == 0


def test_cookie_authenticated_cart_posts_need_the_csrf_token(client, shirt):
    make_user("sam@example.com")
    client.post("/login", data={"email": "sam@example.com", "password": "correct horse battery"})  # refused: no token
    from tests.factories import csrf_token

    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "sam@example.com", "password": "correct horse battery", "csrf_token": token})
    body = {"product_id": shirt.id, "selected_color": "navy", "selected_size": "M"}

    assert_error(client.post("/api/cart", json=body), 400, "csrf_failed")
    allowed = client.post("/api/cart", json=body, headers={"X-CSRFToken": csrf_token(client)})
    assert allowed.status_code == 201, allowed.get_json()
