"""Attacks on payment integrity (issue #10 items 6 and 7): free orders in production, double payments,
payments for cancelled or wrongly priced orders, and concurrent webhook deliveries."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from insightshop import create_app
from insightshop.config import ConfigError
from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order, OrderEvent, PaymentLog
from insightshop.services import admin_orders, orders
from insightshop.services.actors import Actor
from tests.factories import guest_bearer, make_product, make_user
from tests.stripe_recorded import RecordedStripe, intent_event, signed

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip
WEBHOOK_SECRET = "whsec_test_recorded_secret"
CARD = "4242 4242 4242 4242"


def run_in_threads(app, count: int, work) -> list:
    """Run work(index) in `count` threads released together; each has its own app context and session."""
    results, barrier = [None] * count, threading.Barrier(count)

    def worker(index: int) -> None:
        with app.app_context():
            barrier.wait()
            try:
                results[index] = work(index)
            except Exception as error:  # kept for the assertions
                results[index] = error
            finally:
                db.session.remove()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def place_guest_order(client, *, stock: int = 5, quantity: int = 2, price: str = "30.00"):
    product = make_product("Oxford Shirt", sizes=("L",), stock=stock, price=price)
    headers = guest_bearer(client)
    client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": quantity})
    placed = client.post("/api/orders", headers=headers, json=ADDRESS)
    assert placed.status_code == 201, placed.get_json()
    return headers, placed.get_json()["order"]["id"], product.variants[0].id


# Item 6: the offline test provider in production -------------------------------------------------------------


def test_production_without_a_stripe_key_refuses_to_start_naming_both_settings(monkeypatch, tmp_path):
    for name in ("STRIPE_SECRET_KEY", "ALLOW_OFFLINE_PAYMENTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SECRET_KEY", "a-production-secret-" + "k" * 32)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com")

    with pytest.raises(ConfigError) as refused:
        create_app({"APP_ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/shop.db"})

    assert "STRIPE_SECRET_KEY" in str(refused.value) and "ALLOW_OFFLINE_PAYMENTS" in str(refused.value)


def test_production_starts_with_the_explicit_offline_flag_or_a_stripe_key(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "a-production-secret-" + "k" * 32)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com")
    monkeypatch.delenv("STRIPE_SECRET_KEY", raising=False)
    monkeypatch.setenv("ALLOW_OFFLINE_PAYMENTS", "1")
    flagged = create_app({"APP_ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a.db"})
    monkeypatch.delenv("ALLOW_OFFLINE_PAYMENTS")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_live_configured")
    with_stripe = create_app({"APP_ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/b.db"})

    assert flagged.config["ALLOW_OFFLINE_PAYMENTS"] is True and flagged.config["STRIPE_SECRET_KEY"] is None
    assert with_stripe.config["ALLOW_OFFLINE_PAYMENTS"] is False


def test_an_offline_payment_is_visibly_a_test_payment(client):
    headers, order_id, _ = place_guest_order(client)
    intent = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).get_json()

    paid = client.post("/api/payments/offline/confirm", headers=headers,
                       json={"payment_intent_id": intent["payment_intent_id"], "card_number": CARD}).get_json()  # fmt: skip

    assert paid["order"]["status"] == "paid" and paid["order"]["test_payment"] is True
    assert paid["order"]["payment_method"] == "Visa •••• 4242 (test)"
    assert "test payment" in [e for e in paid["order"]["events"] if e["status"] == "paid"][0]["note"]


def test_the_pay_page_offers_no_test_cards_in_production(app, client):
    make_product("Oxford Shirt", sizes=("L",), stock=5)
    _, order_id, _ = place_guest_order(client)
    order = db.session.get(Order, order_id)
    token_client = app.test_client()
    token_client.get(f"/orders/{order_id}?token={order.guest_token}")

    development = token_client.get(f"/orders/{order_id}/pay").get_data(as_text=True)
    app.config["APP_ENV"] = "production"
    production = token_client.get(f"/orders/{order_id}/pay").get_data(as_text=True)

    assert "4242 4242 4242 4242" in development
    assert "4242" not in production and "Test payments" in production


def test_the_offline_confirm_endpoint_is_gone_when_stripe_is_active(app, client):
    headers, order_id, _ = place_guest_order(client)
    intent = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).get_json()
    app.config.update(STRIPE_SECRET_KEY="sk_test_recorded", STRIPE_HTTP_CLIENT=RecordedStripe())

    response = client.post("/api/payments/offline/confirm", headers=headers,
                           json={"payment_intent_id": intent["payment_intent_id"], "card_number": CARD})  # fmt: skip

    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"
    assert db.session.get(Order, order_id).status == "pending"


# Item 7: double payments ---------------------------------------------------------------------------------------


@pytest.mark.commits
def test_ten_concurrent_offline_confirms_pay_the_order_exactly_once(app, client):
    headers, order_id, _ = place_guest_order(client)
    intent = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).get_json()
    body = {"payment_intent_id": intent["payment_intent_id"], "card_number": CARD}

    responses = run_in_threads(
        app, 10, lambda _: (lambda r: (r.status_code, r.get_json()))(
            app.test_client().post("/api/payments/offline/confirm", headers=headers, json=body))
    )  # fmt: skip

    statuses = sorted(status for status, _ in responses)
    assert statuses == [200] + [409] * 9, responses
    assert {data["error"]["code"] for status, data in responses if status == 409} == {"already_paid"}
    db.session.expire_all()
    assert db.session.query(PaymentLog).filter_by(order_id=order_id, status="succeeded").count() == 1
    assert db.session.query(OrderEvent).filter_by(order_id=order_id, status="paid").count() == 1
    assert db.session.get(Order, order_id).status == "paid"


@pytest.mark.commits
def test_a_payment_racing_a_cancellation_never_keeps_the_money_of_a_cancelled_order(app, client):
    headers, order_id, variant_id = place_guest_order(client, stock=5, quantity=2)
    admin_id = make_user("cancels@example.com", admin=True).id
    intent = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).get_json()
    body = {"payment_intent_id": intent["payment_intent_id"], "card_number": CARD}

    def act(index):
        if index % 2:
            return app.test_client().post("/api/payments/offline/confirm", headers=headers, json=body).status_code
        return admin_orders.change_status(Actor(user=db.session.get(User, admin_id)), order_id, "cancelled").status

    run_in_threads(app, 6, act)

    db.session.expire_all()
    order = db.session.get(Order, order_id)
    stock = db.session.get(ProductVariant, variant_id).stock
    events = [e.status for e in order.events]
    charged = db.session.query(PaymentLog).filter_by(order_id=order_id, kind="payment", status="succeeded").count()
    refunded = db.session.query(PaymentLog).filter_by(order_id=order_id, kind="refund", status="succeeded").count()
    # Cancelled first: no payment gets through. Paid first: the cancellation refunds it. Each happens once.
    assert events.count("paid") <= 1 and events.count("cancelled") == 1
    assert order.status == "cancelled" and stock == 5
    assert charged == refunded == events.count("paid")


@pytest.fixture
def stripe_app(app):
    recorded = RecordedStripe()
    recorded.routes[("post", "/v1/refunds")] = ("refund_stray_payment.json", 200)
    app.config.update(STRIPE_SECRET_KEY="sk_test_recorded", STRIPE_PUBLISHABLE_KEY="pk_test_recorded",
                      STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET, STRIPE_HTTP_CLIENT=recorded)  # fmt: skip
    return recorded


@pytest.fixture
def stripe_order(stripe_app, client):
    """A guest's pending order of 2 × 29.99 (70.73 with tax and shipping) with its Stripe PaymentIntent."""
    headers, order_id, variant_id = place_guest_order(client, stock=5, quantity=2, price="29.99")
    client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})
    order = db.session.get(Order, order_id)
    assert order.payment_intent_id == "pi_3QxRecorded0001" and str(order.total) == "70.73"
    return order, variant_id


def deliver(client, event: dict):
    body, header = signed(event, WEBHOOK_SECRET)
    return client.post("/api/payments/webhook", data=body,
                       headers={"Stripe-Signature": header, "Content-Type": "application/json"})  # fmt: skip


def test_a_signed_success_for_a_cancelled_order_is_refunded_never_paid(stripe_app, stripe_order, client):
    order, variant_id = stripe_order
    orders.cancel_order(order, actor_label="system", note="Cancelled by the customer")

    response = deliver(client, intent_event("evt_late", "payment_intent.succeeded", order.payment_intent_id, 7073,
                                            order.id))  # fmt: skip

    assert response.status_code == 200 and response.get_json()["duplicate"] is False
    db.session.expire_all()
    order = db.session.get(Order, order.id)
    assert order.status == "cancelled" and order.paid_at is None
    assert db.session.get(ProductVariant, variant_id).stock == 5  # restocked once, by the cancellation
    payment = db.session.query(PaymentLog).filter_by(event_id="evt_late").one()
    assert payment.status == "refunded" and "already cancelled" in payment.error_message
    refund = db.session.query(PaymentLog).filter_by(kind="refund").one()
    assert (refund.event_id, refund.intent_id, str(refund.amount)) == ("re_3QxRecordedStray01", "pi_3QxRecorded0001",
                                                                       "70.73")  # fmt: skip
    [sent] = [r for r in stripe_app.requests if r["path"] == "/v1/refunds"]
    assert sent["form"] == {"payment_intent": "pi_3QxRecorded0001", "amount": "7073"}
    assert sent["headers"]["Idempotency-Key"] == "insightshop-refund-intent-pi_3QxRecorded0001"
    assert "refunded automatically" in order.events[-1].note


def test_a_success_for_a_wrong_amount_is_refunded_and_the_order_stays_pending(stripe_app, stripe_order, client):
    order, _ = stripe_order

    deliver(client, intent_event("evt_cheap", "payment_intent.succeeded", order.payment_intent_id, 100, order.id))

    db.session.expire_all()
    order = db.session.get(Order, order.id)
    assert order.status == "pending" and order.paid_at is None
    payment = db.session.query(PaymentLog).filter_by(event_id="evt_cheap").one()
    assert payment.status == "refunded" and "does not match the order total 70.73" in payment.error_message
    assert [r["form"]["amount"] for r in stripe_app.requests if r["path"] == "/v1/refunds"] == ["100"]


def test_a_second_payment_of_a_paid_order_is_refunded(stripe_app, stripe_order, client):
    order, _ = stripe_order
    deliver(client, intent_event("evt_paid", "payment_intent.succeeded", order.payment_intent_id, 7073, order.id))

    deliver(client, intent_event("evt_twice", "payment_intent.succeeded", "pi_3QxStrayPayment01", 7073, order.id))

    db.session.expire_all()
    order = db.session.get(Order, order.id)
    assert order.status == "paid" and sum(e.note.startswith("Paid by") for e in order.events) == 1
    assert order.events[-1].note.startswith("Payment of 70.73 refunded automatically (re_3QxRecordedStray01)")
    assert db.session.query(PaymentLog).filter_by(event_id="evt_twice").one().status == "refunded"
    [sent] = [r for r in stripe_app.requests if r["path"] == "/v1/refunds"]
    assert sent["form"]["payment_intent"] == "pi_3QxStrayPayment01"


def test_a_payment_that_cannot_be_refunded_is_flagged_for_review(stripe_app, stripe_order, client):
    order, _ = stripe_order
    stripe_app.routes[("post", "/v1/refunds")] = ("card_declined_error.json", 400)
    admin = Actor(user=make_user("admin@example.com", admin=True))
    admin_orders.change_status(admin, order.id, "cancelled")

    response = deliver(client, intent_event("evt_review", "payment_intent.succeeded", order.payment_intent_id,
                                            7073, order.id))  # fmt: skip

    assert response.status_code == 200
    db.session.expire_all()
    order = db.session.get(Order, order.id)
    assert order.status == "cancelled" and order.paid_at is None
    flagged = admin_orders.list_payments(status="needs_review")
    assert [log.event_id for log in flagged] == ["evt_review"]
    assert "automatic refund failed" in flagged[0].error_message
    assert order.events[-1].note.startswith("Payment needs review: 70.73 received but the order is already cancelled")


@pytest.mark.commits
def test_ten_concurrent_deliveries_of_one_event_apply_it_once_and_never_500(app, stripe_app, stripe_order):
    order, _ = stripe_order
    body, header = signed(intent_event("evt_storm", "payment_intent.succeeded", order.payment_intent_id, 7073,
                                       order.id), WEBHOOK_SECRET)  # fmt: skip

    def post(_):
        response = app.test_client().post("/api/payments/webhook", data=body,
                                          headers={"Stripe-Signature": header, "Content-Type": "application/json"})  # fmt: skip
        return response.status_code, response.get_json()

    responses = run_in_threads(app, 10, post)

    assert [status for status, _ in responses] == [200] * 10, responses
    assert sorted(data["duplicate"] for _, data in responses) == [False] + [True] * 9
    db.session.expire_all()
    assert db.session.query(PaymentLog).filter_by(event_id="evt_storm").count() == 1
    assert db.session.query(OrderEvent).filter_by(order_id=order.id, status="paid").count() == 1


@pytest.mark.commits
def test_concurrent_deliveries_of_an_event_for_no_known_order_never_500(app, stripe_app):
    body, header = signed(intent_event("evt_orphan", "payment_intent.succeeded", "pi_nobody", 500, 999_999),
                          WEBHOOK_SECRET)  # fmt: skip

    responses = run_in_threads(app, 10, lambda _: app.test_client().post(
        "/api/payments/webhook", data=body, headers={"Stripe-Signature": header, "Content-Type": "application/json"}
    ).status_code)  # fmt: skip

    assert responses == [200] * 10
    db.session.expire_all()
    assert db.session.query(PaymentLog).filter_by(event_id="evt_orphan").one().status == "needs_review"


# Issue 26 item 6: deploy/serve (which every app server runs) fills in test payments only for a shop on loopback.
REPOSITORY = Path(__file__).resolve().parents[2]


def _serve(tmp_path, **env):
    fake_gunicorn = tmp_path / "gunicorn"
    fake_gunicorn.write_text('#!/bin/sh\necho "payments:${ALLOW_OFFLINE_PAYMENTS:-off}"\n')
    fake_gunicorn.chmod(0o755)
    environment = {"PATH": os.environ["PATH"], "SECRET_KEY": "s" * 48, "GUNICORN": str(fake_gunicorn),
                   "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), **env}  # fmt: skip
    return subprocess.run(["bash", "deploy/serve"], cwd=REPOSITORY, env=environment, capture_output=True, text=True,
                          timeout=60)  # fmt: skip


@pytest.mark.skipif(not (REPOSITORY / ".venv/bin/python").exists(), reason="deploy/serve runs from make's .venv")
def test_deploy_serve_never_turns_on_test_payments_for_a_public_address(tmp_path):
    public = _serve(tmp_path, PUBLIC_BASE_URL="https://shop.example.com")
    lookalike = _serve(tmp_path, PUBLIC_BASE_URL="http://127.0.0.1.example.com")
    loopback = _serve(tmp_path, PORT="5999")
    explicit = _serve(tmp_path, PUBLIC_BASE_URL="https://demo.example.com", ALLOW_OFFLINE_PAYMENTS="1")
    listening_everywhere = _serve(tmp_path, HOST="0.0.0.0")  # no public URL given: it defaults to loopback

    assert public.returncode == 1 and "STRIPE_SECRET_KEY must be set" in public.stderr
    assert "payments:" not in public.stdout
    assert lookalike.returncode == 1
    assert loopback.returncode == 0 and loopback.stdout.strip() == "payments:1"
    assert explicit.returncode == 0 and explicit.stdout.strip() == "payments:1"  # the operator's own decision
    assert listening_everywhere.returncode == 1 and "payments:" not in listening_everywhere.stdout
