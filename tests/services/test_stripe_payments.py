import pytest

from insightshop.extensions import db
from insightshop.models.orders import PaymentLog
from insightshop.services import cart, orders, payments
from insightshop.services.actors import Actor
from insightshop.services.errors import Invalid
from insightshop.services.payments import stripe_provider
from tests.factories import make_product, make_user
from tests.services.test_orders import details
from tests.stripe_recorded import RecordedStripe, intent_event, signed

WEBHOOK_SECRET = "whsec_test_recorded_secret"


@pytest.fixture
def stripe_app(app):
    recorded = RecordedStripe()
    app.config.update(STRIPE_SECRET_KEY="sk_test_recorded", STRIPE_PUBLISHABLE_KEY="pk_test_recorded",
                      STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET, STRIPE_HTTP_CLIENT=recorded)  # fmt: skip
    return recorded


@pytest.fixture
def order(stripe_app):
    shopper = Actor(user=make_user())
    shirt = make_product(sizes=("L",), stock=5, price="29.99")
    cart.add_item(shopper, shirt.id, 2)
    return orders.place_order(shopper, details())


def test_create_intent_sends_the_server_total_in_cents_with_an_idempotency_key(stripe_app, order):
    intent = payments.create_intent(order)

    [sent] = stripe_app.requests
    assert payments.provider_name() == "stripe"
    assert (sent["method"], sent["path"]) == ("post", "/v1/payment_intents")
    assert sent["form"]["amount"] == str(payments.to_cents(order.total)) == "7073"
    assert sent["form"]["currency"] == "usd" and sent["form"]["metadata[order_id]"] == str(order.id)
    assert sent["headers"]["Idempotency-Key"] == f"insightshop-order-{order.id}-7073"
    assert sent["headers"]["Authorization"] == "Bearer sk_test_recorded"
    assert (intent.provider, intent.payment_intent_id) == ("stripe", "pi_3QxRecorded0001")
    assert intent.client_secret.startswith("pi_3QxRecorded0001_secret_")
    assert order.payment_intent_id == "pi_3QxRecorded0001"


def test_a_signed_success_event_marks_the_order_paid_once(stripe_app, order):
    payments.create_intent(order)
    event = intent_event("evt_1", "payment_intent.succeeded", order.payment_intent_id, 7073, order.id)
    body, header = signed(event, WEBHOOK_SECRET)

    first = stripe_provider.handle_webhook(body, header)
    paid_at = order.paid_at
    replay = stripe_provider.handle_webhook(body, header)

    assert first == {"received": True, "duplicate": False, "type": "payment_intent.succeeded"}
    assert replay == {"received": True, "duplicate": True}
    assert order.status == "paid" and order.paid_at == paid_at
    assert [e.status for e in order.events].count("paid") == 1
    assert db.session.query(PaymentLog).filter_by(event_id="evt_1").count() == 1


def test_a_bad_or_stale_signature_is_refused_and_changes_nothing(stripe_app, order):
    payments.create_intent(order)
    event = intent_event("evt_2", "payment_intent.succeeded", order.payment_intent_id, 7073, order.id)
    body, _ = signed(event, "whsec_someone_else")
    _, stale = signed(event, WEBHOOK_SECRET, timestamp=1_000_000_000)

    for header in (_, stale, None, "garbage"):
        with pytest.raises(Invalid) as error:
            stripe_provider.handle_webhook(body, header)
        assert error.value.code == "signature_invalid"
    assert order.status == "pending"


def test_a_payment_for_a_different_amount_does_not_pay_the_order(stripe_app, order):
    payments.create_intent(order)
    body, header = signed(
        intent_event("evt_3", "payment_intent.succeeded", order.payment_intent_id, 100, order.id), WEBHOOK_SECRET
    )

    stripe_provider.handle_webhook(body, header)

    assert order.status == "pending"


def test_a_failed_payment_is_logged_and_the_order_stays_pending(stripe_app, order):
    payments.create_intent(order)
    event = intent_event("evt_4", "payment_intent.payment_failed", order.payment_intent_id, 7073, order.id,
                         last_payment_error={"message": "Your card was declined."})  # fmt: skip
    body, header = signed(event, WEBHOOK_SECRET)

    stripe_provider.handle_webhook(body, header)

    log = db.session.query(PaymentLog).filter_by(event_id="evt_4").one()
    assert (log.status, log.error_message) == ("failed", "Your card was declined.")
    assert order.status == "pending" and order.events[-1].note == "Payment failed: Your card was declined."


def test_refunds_go_through_the_stripe_sdk(stripe_app, order):
    payments.create_intent(order)
    refund_id = stripe_provider.refund(order, order.total)

    sent = stripe_app.requests[-1]
    assert (sent["path"], sent["form"]["payment_intent"], sent["form"]["amount"]) == (
        "/v1/refunds",
        "pi_3QxRecorded0001",
        "7073",
    )
    assert refund_id == "re_3QxRecorded0001"
