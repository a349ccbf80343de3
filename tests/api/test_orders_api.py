import pytest

from insightshop.extensions import db
from insightshop.models.orders import Order
from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_product, make_user

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip


@pytest.fixture
def guest_with_cart(client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5, price="30.00")
    headers = guest_bearer(client)
    client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": 2})
    return headers


def test_checkout_pay_and_read_the_order(client, guest_with_cart):
    headers = {**guest_with_cart, "Idempotency-Key": "checkout-0001"}

    placed = client.post("/api/orders", headers=headers, json={**ADDRESS, "shipping_method": "express"})
    retried = client.post("/api/orders", headers=headers, json={**ADDRESS, "shipping_method": "express"})
    order = placed.get_json()["order"]
    intent = client.post(
        "/api/payments/create-intent", headers=guest_with_cart, json={"order_id": order["id"]}
    ).get_json()
    paid = client.post("/api/payments/offline/confirm", headers=guest_with_cart,
                       json={"payment_intent_id": intent["payment_intent_id"], "card_number": "4242 4242 4242 4242"})  # fmt: skip

    assert placed.status_code == 201 and retried.status_code == 200 and retried.get_json()["order"]["id"] == order["id"]
    assert (order["subtotal"], order["shipping"], order["total"]) == ("60.00", "14.95", "79.75")
    assert intent["provider"] == "offline" and intent["amount"] == "79.75"
    assert paid.get_json()["order"]["status"] == "paid"
    assert paid.get_json()["order"]["receipt_pdf_url"] == f"/orders/{order['id']}/receipt.pdf"
    assert client.get("/api/cart", headers=guest_with_cart).get_json()["cart"]["item_count"] == 0
    assert db.session.query(Order).count() == 1


def test_client_prices_are_not_accepted(client, guest_with_cart):
    assert_error(
        client.post("/api/orders", headers=guest_with_cart, json={**ADDRESS, "total": "0.01"}),
        400,
        "validation_error",
        "total",
    )


@pytest.mark.parametrize("missing", ["email", "shipping_name", "shipping_zip"])
def test_checkout_validates_the_seed_schema(client, guest_with_cart, missing):
    body = {k: v for k, v in ADDRESS.items() if k != missing}
    assert_error(client.post("/api/orders", headers=guest_with_cart, json=body), 400, "validation_error", missing)


def test_checkout_errors(client, guest_with_cart):
    assert_error(client.post("/api/orders", json=ADDRESS), 401, "unauthorized")
    assert_error(client.post("/api/orders", headers=guest_bearer(client), json=ADDRESS), 400, "cart_empty")
    assert_error(client.post("/api/orders", headers={**guest_with_cart, "Idempotency-Key": "x"}, json=ADDRESS), 400,
                 "validation_error", "Idempotency-Key")  # fmt: skip


def test_declined_card_is_a_clear_409_and_the_cart_stays(client, guest_with_cart):
    order = client.post("/api/orders", headers=guest_with_cart, json=ADDRESS).get_json()["order"]
    intent = client.post(
        "/api/payments/create-intent", headers=guest_with_cart, json={"order_id": order["id"]}
    ).get_json()

    declined = client.post("/api/payments/offline/confirm", headers=guest_with_cart,
                           json={"payment_intent_id": intent["payment_intent_id"], "card_number": "4000000000000002"})  # fmt: skip

    error = assert_error(declined, 409, "payment_declined")
    assert error["message"] == "Your card was declined."
    assert client.get("/api/cart", headers=guest_with_cart).get_json()["cart"]["item_count"] == 2


def test_another_customers_order_is_404_everywhere(client, guest_with_cart):
    order = client.post("/api/orders", headers=guest_with_cart, json=ADDRESS).get_json()["order"]
    intent = client.post(
        "/api/payments/create-intent", headers=guest_with_cart, json={"order_id": order["id"]}
    ).get_json()
    make_user("nosy@example.com")
    nosy = bearer(client, "nosy@example.com")

    assert_error(client.get(f"/api/orders/{order['id']}", headers=nosy), 404, "not_found")
    assert_error(
        client.post("/api/payments/create-intent", headers=nosy, json={"order_id": order["id"]}), 404, "not_found"
    )
    assert_error(client.post("/api/payments/offline/confirm", headers=nosy,
                             json={"payment_intent_id": intent["payment_intent_id"], "card_number": "4242424242424242"}),
                 404, "not_found")  # fmt: skip
    assert client.get("/api/orders", headers=nosy).get_json() == {"orders": []}


def test_order_token_grants_access_to_a_guest_order(client, guest_with_cart):
    placed = client.post("/api/orders", headers=guest_with_cart, json=ADDRESS).get_json()

    response = client.get(f"/api/orders/{placed['order']['id']}", headers={"X-Order-Token": placed["order_token"]})

    assert response.status_code == 200


def test_status_and_tracking_lookups(client, guest_with_cart):
    order_id = client.post("/api/orders", headers=guest_with_cart, json=ADDRESS).get_json()["order"]["id"]
    order = db.session.get(Order, order_id)
    order.tracking_number, order.carrier = "1Z999AA10123456784", "UPS"
    db.session.commit()

    status = client.post("/api/orders/status", json={"order_id": order_id, "email": "SAM@example.com"})
    wrong_email = client.post("/api/orders/status", json={"order_id": order_id, "email": "eve@example.com"})
    missing = client.post("/api/orders/status", json={"order_id": 999, "email": "sam@example.com"})
    tracked = client.post("/api/orders/track", json={"tracking_number": "1Z999AA10123456784"})

    assert status.get_json()["order"]["status"] == "pending"
    assert wrong_email.get_json() == missing.get_json() and missing.status_code == 404
    assert tracked.get_json()["shipment"]["carrier"] == "UPS"
    assert_error(client.post("/api/orders/track", json={"tracking_number": "nope"}), 404, "not_found")
    assert_error(client.post("/api/orders/status", json={"order_id": "1", "email": "x"}), 400, "validation_error")


def test_paying_twice_is_refused(client, guest_with_cart):
    order = client.post("/api/orders", headers=guest_with_cart, json=ADDRESS).get_json()["order"]
    intent = client.post(
        "/api/payments/create-intent", headers=guest_with_cart, json={"order_id": order["id"]}
    ).get_json()
    body = {"payment_intent_id": intent["payment_intent_id"], "card_number": "4242424242424242"}
    client.post("/api/payments/offline/confirm", headers=guest_with_cart, json=body)

    assert_error(client.post("/api/payments/offline/confirm", headers=guest_with_cart, json=body), 409, "already_paid")
    assert_error(
        client.post("/api/payments/create-intent", headers=guest_with_cart, json={"order_id": order["id"]}),
        409,
        "already_paid",
    )


def test_webhook_endpoint_is_off_without_stripe(client):
    assert_error(client.post("/api/payments/webhook", data=b"{}"), 404, "not_found")


def test_webhook_endpoint_rejects_bad_signatures(app, client):
    app.config.update(STRIPE_SECRET_KEY="sk_test_x", STRIPE_WEBHOOK_SECRET="whsec_x")
    assert_error(client.post("/api/payments/webhook", data=b'{"id": "evt"}', headers={"Stripe-Signature": "t=1,v1=00"}),
                 400, "signature_invalid")  # fmt: skip
    assert_error(client.post("/api/payments/offline/confirm", json={"payment_intent_id": "pi", "card_number": "4242424242424242"}),
                 404, "not_found")  # fmt: skip
