from decimal import Decimal

from insightshop.extensions import db
from insightshop.services.actors import Actor
from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_paid_order, make_product, make_user


def test_wishlist_add_list_and_remove(client):
    product = make_product("Wool Coat", clothing_type="coat", price="200.00")
    make_user()
    headers = bearer(client)

    added = client.post("/api/wishlist", headers=headers, json={"product_id": product.id})
    product.price = Decimal("150.00")
    db.session.commit()
    listed = client.get("/api/wishlist", headers=headers).get_json()["items"]

    assert added.status_code == 201
    assert listed[0]["price_drop"] == "50.00" and listed[0]["saved_price"] == "200.00"
    assert client.delete(f"/api/wishlist/{product.id}", headers=headers).get_json() == {"ok": True}
    assert_error(client.delete(f"/api/wishlist/{product.id}", headers=headers), 404, "not_found")


def test_wishlist_needs_a_user(client):
    product = make_product()
    assert_error(client.get("/api/wishlist"), 401, "unauthorized")
    assert_error(
        client.post("/api/wishlist", headers=guest_bearer(client), json={"product_id": product.id}), 401, "unauthorized"
    )
    make_user()
    assert_error(
        client.post("/api/wishlist", headers=bearer(client), json={"product_id": "x"}),
        400,
        "validation_error",
        "product_id",
    )


def test_reviews_by_guest_and_user_update_the_rating(client):
    product = make_product(rating="0.0", rating_count=0)
    make_paid_order(Actor(user=make_user()), product)
    user = bearer(client)

    guest = client.post(f"/api/products/{product.id}/reviews", headers=guest_bearer(client),
                        json={"rating": 4, "comment": "<b>Nice</b>", "user_name": "Gina"})  # fmt: skip
    mine = client.post(f"/api/products/{product.id}/reviews", headers=user, json={"rating": 2})
    edited = client.post(
        f"/api/products/{product.id}/reviews", headers=user, json={"rating": 5, "comment": "Better now"}
    )
    listed = client.get(f"/api/products/{product.id}/reviews").get_json()["reviews"]
    detail = client.get(f"/api/products/{product.id}").get_json()["product"]

    assert (guest.status_code, mine.status_code, edited.status_code) == (201, 201, 200)
    assert [r["rating"] for r in listed] == [5.0, 4.0]
    assert listed[1]["comment"] == "<b>Nice</b>"  # stored as written; pages escape it
    assert [r["verified_purchase"] for r in listed] == [True, False]
    assert (detail["rating"], detail["rating_count"]) == (5.0, 1)  # the guest bought nothing: not counted


def test_review_errors(client):
    product = make_product()
    guest = guest_bearer(client)
    assert_error(client.post(f"/api/products/{product.id}/reviews", json={"rating": 4, "user_name": "G"}), 401,
                 "unauthorized")  # fmt: skip
    assert_error(client.post(f"/api/products/{product.id}/reviews", headers=guest, json={"rating": 4}), 400,
                 "validation_error", "user_name")  # fmt: skip
    assert_error(
        client.post(f"/api/products/{product.id}/reviews", headers=guest, json={"rating": 9, "user_name": "G"}),
        400,
        "validation_error",
        "rating",
    )
    assert_error(client.post("/api/products/999/reviews", headers=guest, json={"rating": 4, "user_name": "G"}), 404,
                 "not_found")  # fmt: skip
    assert_error(client.get(f"/api/products/{product.id}/reviews?limit=0"), 400, "validation_error")


def test_deleting_someone_elses_review_is_forbidden(client):
    product = make_product()
    make_user("a@example.com")
    make_user("b@example.com")
    review = client.post(
        f"/api/products/{product.id}/reviews", headers=bearer(client, "a@example.com"), json={"rating": 3}
    ).get_json()["review"]

    assert_error(
        client.delete(f"/api/reviews/{review['id']}", headers=bearer(client, "b@example.com")), 403, "forbidden"
    )
    assert client.delete(f"/api/reviews/{review['id']}", headers=bearer(client, "a@example.com")).status_code == 200


def test_compare_products(client):
    a, b = make_product("Alpha Shirt", price="30.00"), make_product("Beta Shirt", price="40.00")

    body = client.post("/api/ai/compare", json={"product_ids": [b.id, a.id]}).get_json()

    assert [p["name"] for p in body["products"]] == ["Beta Shirt", "Alpha Shirt"]
    assert_error(client.post("/api/ai/compare", json={"product_ids": [a.id]}), 400, "validation_error", "product_ids")
    assert_error(
        client.post("/api/ai/compare", json={"product_ids": list(range(1, 12))}), 400, "validation_error", "product_ids"
    )
    assert_error(client.post("/api/ai/compare", json={"product_ids": [a.id, 999]}), 404, "not_found")
