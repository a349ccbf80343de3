"""The payment provider failing mid-checkout (issue 15 part 6): the order stays pending with its stock held, the
shopper gets a clear 503 (payment_failed, Retry-After) or a page saying so — never a 500 —, a retry never starts a
second payment (one Stripe idempotency key per order), and the hold's expiry gives the stock back."""

from __future__ import annotations

import json

import pytest
import stripe

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order
from insightshop.services import orders
from insightshop.services.payments import offline
from tests.api.test_products_api import assert_error
from tests.factories import guest_bearer, make_product
from tests.security.test_money_checkout import backdate
from tests.stripe_recorded import RecordedStripe

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip
CREATE = ("post", "/v1/payment_intents")


class FailingStripe(RecordedStripe):
    """Stripe's HTTP layer failing the next `failures` PaymentIntent creations — a timeout (the answer is lost,
    whether or not Stripe did the work) or a 500 — then answering as recorded."""

    def __init__(self, failures: int, how: str):
        super().__init__()
        self.failures, self.how = failures, how

    def request(self, method, url, headers, post_data=None, *, _usage=None):
        if (method, "/v1/payment_intents") == CREATE and url.endswith("/v1/payment_intents") and self.failures:
            self.failures -= 1
            self.requests.append({"method": method, "path": "/v1/payment_intents", "headers": dict(headers or {}),
                                  "failed": self.how})  # fmt: skip
            if self.how == "timeout":
                raise stripe.APIConnectionError("Request to Stripe timed out", should_retry=True)
            error = {"error": {"type": "api_error", "message": "An unknown error occurred"}}
            return json.dumps(error), 500, {"Request-Id": f"req_failed_{len(self.requests)}"}
        return super().request(method, url, headers, post_data, _usage=_usage)


@pytest.fixture(autouse=True)
def no_stripe_retry_pauses(monkeypatch):
    # The SDK waits between its own retries; the retries themselves still happen.
    monkeypatch.setattr(stripe.HTTPClient, "_sleep_time_seconds", lambda self, *a, **k: 0)


def use_stripe(app, failures: int, how: str) -> FailingStripe:
    recorded = FailingStripe(failures, how)
    app.config.update(STRIPE_SECRET_KEY="sk_test_recorded", STRIPE_PUBLISHABLE_KEY="pk_test_recorded",
                      STRIPE_HTTP_CLIENT=recorded)  # fmt: skip
    return recorded


def place(client, *, stock: int = 5, quantity: int = 2):
    product = make_product("Oxford Shirt", sizes=("L",), stock=stock, price="30.00")
    headers = guest_bearer(client)
    client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": quantity})
    placed = client.post("/api/orders", headers=headers, json=ADDRESS)
    assert placed.status_code == 201, placed.get_json()
    return headers, placed.get_json(), product.variants[0].id


def stock(variant_id: int) -> int:
    db.session.expire_all()
    return db.session.get(ProductVariant, variant_id).stock


def order_row(order_id: int) -> Order:
    db.session.expire_all()
    return db.session.get(Order, order_id)


@pytest.mark.parametrize("how", ["timeout", "500"])
def test_stripe_failing_leaves_the_order_pending_and_a_retry_starts_one_payment(app, client, how):
    stripe_http = use_stripe(app, failures=3, how=how)  # the SDK's own two retries fail too
    headers, placed, variant_id = place(client)
    order_id, cents = placed["order"]["id"], int(placed["order"]["total"].replace(".", ""))

    failed = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})

    error = assert_error(failed, 503, "payment_failed")
    assert failed.headers["Retry-After"] == "10" and "nothing was charged" in error["message"]
    assert order_row(order_id).status == "pending" and order_row(order_id).payment_intent_id is None
    assert stock(variant_id) == 3  # still held for this shopper

    retried = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})
    again = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})

    assert retried.status_code == again.status_code == 201
    assert retried.get_json()["payment_intent_id"] == again.get_json()["payment_intent_id"] == "pi_3QxRecorded0001"
    creations = [r for r in stripe_http.requests if (r["method"], r["path"]) == CREATE]
    assert len(creations) == 4  # three failed attempts, one that worked; the later view only reads the intent
    assert {r["headers"]["Idempotency-Key"] for r in creations} == {f"insightshop-order-{order_id}-{cents}"}
    assert order_row(order_id).payment_intent_id == "pi_3QxRecorded0001"


def test_the_pay_page_tells_the_shopper_when_stripe_is_down(app, client):
    use_stripe(app, failures=3, how="timeout")
    _, placed, _ = place(client)
    order_id = placed["order"]["id"]

    page = client.get(f"/orders/{order_id}/pay?token={placed['order_token']}", follow_redirects=True)

    assert page.status_code == 200 and page.request.path == f"/orders/{order_id}"
    assert "The payment service is unavailable right now; nothing was charged" in page.get_data(as_text=True)
    assert order_row(order_id).status == "pending"


def test_the_offline_provider_raising_is_a_503_and_the_order_waits(app, client, monkeypatch):
    headers, placed, variant_id = place(client)
    order_id = placed["order"]["id"]

    def unreachable(order):
        raise TimeoutError("the payment provider did not answer")

    with monkeypatch.context() as patch:
        patch.setattr(offline, "create_intent", unreachable)
        failed = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})
    retried = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})

    assert_error(failed, 503, "payment_failed")
    assert retried.status_code == 201 and order_row(order_id).status == "pending" and stock(variant_id) == 3


@pytest.mark.parametrize("expiry", ["the next payment attempt", "the expire-unpaid sweep"])
def test_an_order_left_unpaid_by_a_failed_provider_gives_its_stock_back_when_its_hold_runs_out(app, client, expiry):
    use_stripe(app, failures=3, how="timeout")
    headers, placed, variant_id = place(client)
    order_id = placed["order"]["id"]
    assert client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).status_code == 503
    backdate(order_id, app.config["UNPAID_ORDER_MINUTES"] + 1)

    if expiry == "the next payment attempt":
        late = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})
        assert_error(late, 409, "order_expired")
    else:
        assert orders.expire_unpaid() == 1

    assert order_row(order_id).status == "cancelled" and stock(variant_id) == 5
    assert orders.expire_unpaid() == 0 and stock(variant_id) == 5  # given back once
