"""Attacks on order access and checkout requests (issue #10 items 13 and 14): non-ASCII tokens and emails,
side effects on GET, order tokens in URLs, and a reused Idempotency-Key with a different body."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from insightshop.extensions import db
from insightshop.models.orders import Order, PaymentLog
from insightshop.services import orders
from tests.factories import csrf_token, guest_bearer, make_product
from tests.security.test_money_payments import ADDRESS, RecordedStripe, place_guest_order

# Item 13: non-ASCII tokens and emails --------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["é", "ordér-token-é" * 3, "\u2603", "\ud800"])
def test_non_ascii_order_tokens_are_a_plain_404(client, token):
    _, order_id, _ = place_guest_order(client)
    stranger = guest_bearer(client)

    as_body = client.post("/api/payments/create-intent", headers=stranger, json={"order_id": order_id,
                                                                                "order_token": token})  # fmt: skip
    as_return = client.post("/api/returns", headers=stranger, json={
        "order_id": order_id, "order_token": token, "items": [{"order_item_id": 1, "quantity": 1, "reason": "bad"}]})  # fmt: skip

    assert (as_body.status_code, as_body.get_json()["error"]["code"]) == (404, "not_found")
    assert as_return.status_code == 404


def test_a_non_ascii_order_token_header_is_a_plain_404(client):
    _, order_id, _ = place_guest_order(client)

    response = client.get(f"/api/orders/{order_id}", headers={"X-Order-Token": "tökén-é"})

    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("email", ["sam@exämple.com", "é@example.com", "\u2603@example.com"])
def test_non_ascii_emails_in_order_lookups_are_a_plain_404(client, email):
    _, order_id, _ = place_guest_order(client)

    api = client.post("/api/orders/status", json={"order_id": order_id, "email": email})
    tool = client.post("/api/tools/order_status", json={"order_id": order_id, "email": email})
    page = client.post("/orders/lookup", data={"order_id": order_id, "email": email, "csrf_token": csrf_token(client)})

    assert (api.status_code, api.get_json()["error"]["code"]) == (404, "not_found")
    assert (tool.status_code, tool.get_json()["error"]["code"]) == (404, "not_found")
    assert page.status_code == 404


def test_the_order_status_service_compares_non_ascii_emails_safely(client):
    _, order_id, _ = place_guest_order(client)

    with pytest.raises(orders.NotFound):
        orders.order_status(order_id, "sám@example.com")
    assert orders.order_status(order_id, " SAM@example.com ").id == order_id


# Item 14: no payment intent per page view ----------------------------------------------------------------------


def test_viewing_the_pay_page_creates_the_offline_intent_once(client):
    _, order_id, _ = place_guest_order(client)
    client.get(f"/orders/{order_id}?token={db.session.get(Order, order_id).guest_token}")  # now in the session

    pages = [client.get(f"/orders/{order_id}/pay") for _ in range(3)]

    assert [p.status_code for p in pages] == [200] * 3
    assert db.session.query(PaymentLog).filter_by(order_id=order_id).count() == 1


def test_viewing_the_pay_page_reuses_the_stripe_intent(app, client):
    recorded = RecordedStripe()
    app.config.update(STRIPE_SECRET_KEY="sk_test_recorded", STRIPE_PUBLISHABLE_KEY="pk_test_recorded",
                      STRIPE_HTTP_CLIENT=recorded)  # fmt: skip
    product = make_product("Oxford Shirt", sizes=("L",), stock=5, price="29.99")
    client.post(
        "/cart/add", data={"product_id": product.id, "size": "L", "quantity": 2, "csrf_token": csrf_token(client)}
    )
    order = _page_checkout(client)

    pages = [client.get(f"/orders/{order.id}/pay") for _ in range(3)]

    assert [p.status_code for p in pages] == [200] * 3
    assert all("pi_3QxRecorded0001_secret_" in p.get_data(as_text=True) for p in pages)
    assert [(r["method"], r["path"]) for r in recorded.requests] == [("post", "/v1/payment_intents")] + [
        ("get", "/v1/payment_intents/pi_3QxRecorded0001")
    ] * 2
    assert db.session.query(PaymentLog).filter_by(order_id=order.id).count() == 1


def _page_checkout(client) -> Order:
    form = client.get("/checkout").get_data(as_text=True)
    key = form.split('name="idempotency_key"', 1)[1].split('value="', 1)[1].split('"', 1)[0]
    data = {**ADDRESS, "shipping_country": "US", "shipping_method": "standard", "idempotency_key": key,
            "csrf_token": csrf_token(client, "/checkout")}  # fmt: skip
    placed = client.post("/checkout", data=data)
    assert placed.status_code == 303, placed.get_data(as_text=True)[:2000]
    return db.session.query(Order).order_by(Order.id.desc()).first()


# Item 14: order tokens in URLs ---------------------------------------------------------------------------------


def test_the_api_does_not_take_order_tokens_from_the_query_string(client):
    _, order_id, _ = place_guest_order(client)
    token = db.session.get(Order, order_id).guest_token

    in_query = client.get(f"/api/orders/{order_id}?token={token}")
    in_header = client.get(f"/api/orders/{order_id}", headers={"X-Order-Token": token})

    assert in_query.status_code == 404 and in_header.status_code == 200


def test_an_old_token_link_moves_into_the_session_and_leaves_the_url(app, client):
    _, order_id, _ = place_guest_order(client)
    token = db.session.get(Order, order_id).guest_token
    browser = app.test_client()

    arrived = browser.get(f"/orders/{order_id}?token={token}")
    page = browser.get(f"/orders/{order_id}")

    assert arrived.status_code == 303 and arrived.headers["Location"] == f"/orders/{order_id}"
    assert page.status_code == 200 and f"#{order_id}" in page.get_data(as_text=True)
    assert app.test_client().get(f"/orders/{order_id}").status_code == 404


def test_the_checkout_tool_hands_out_a_signed_short_lived_pay_link_not_the_token(app, client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    headers = guest_bearer(client)
    client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": 1})

    result = client.post("/api/tools/checkout_proceed", headers=headers, json=ADDRESS).get_json()["data"]
    pay_url = result["payment"]["pay_url"]
    order_id = result["order"]["id"]
    browser = app.test_client()
    arrived = browser.get(pay_url)

    assert result["order_token"] not in pay_url
    assert urlsplit(pay_url).path == f"/orders/{order_id}/pay" and "link" in parse_qs(urlsplit(pay_url).query)
    assert arrived.status_code == 303 and arrived.headers["Location"] == f"/orders/{order_id}/pay"
    assert browser.get(f"/orders/{order_id}/pay").status_code == 200
    app.config["ORDER_LINK_MINUTES"] = -1  # every link is now older than its lifetime
    late = app.test_client()
    late.get(pay_url)
    assert late.get(f"/orders/{order_id}/pay").status_code == 404
    tampered = app.test_client()
    tampered.get(pay_url.replace(f"/orders/{order_id}/", f"/orders/{order_id + 1}/"))
    assert orders.token_from_link(order_id + 1, parse_qs(urlsplit(pay_url).query)["link"][0]) is None


# Item 14: a reused Idempotency-Key ----------------------------------------------------------------------------


def test_the_same_idempotency_key_with_a_different_body_is_refused(client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    headers = {**guest_bearer(client), "Idempotency-Key": "checkout-key-0001"}
    client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": 1})

    first = client.post("/api/orders", headers=headers, json=ADDRESS)
    retry = client.post("/api/orders", headers=headers, json=ADDRESS)
    other = client.post("/api/orders", headers=headers, json={**ADDRESS, "shipping_address": "9 Elsewhere Rd"})

    assert first.status_code == 201 and retry.status_code == 200 and retry.get_json()["replayed"] is True
    assert other.status_code == 422 and other.get_json()["error"]["code"] == "idempotency_key_reused"
    assert db.session.query(Order).count() == 1
    assert db.session.query(Order).one().shipping_address == "1 Main St"
