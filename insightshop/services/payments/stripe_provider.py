"""Stripe: PaymentIntents with the official SDK, webhooks verified with the endpoint secret."""

from __future__ import annotations

from decimal import Decimal

import stripe
from flask import current_app
from sqlalchemy import select

from ...extensions import db
from ...models.orders import Order, OrderEvent, PaymentLog
from ..errors import Conflict, DomainError, ErrorCode, Invalid, Unavailable
from . import Intent, mark_paid, record, to_cents

NAME = "stripe"


def client() -> stripe.StripeClient:
    config = current_app.config
    return stripe.StripeClient(config["STRIPE_SECRET_KEY"], http_client=config.get("STRIPE_HTTP_CLIENT"),
                               max_network_retries=2)  # fmt: skip


def create_intent(order: Order) -> Intent:
    """A PaymentIntent for the order's total (retries reuse it thanks to the idempotency key)."""
    params = {
        "amount": to_cents(order.total),
        "currency": order.currency.lower(),
        "metadata": {"order_id": str(order.id)},
        "receipt_email": order.email,
        "automatic_payment_methods": {"enabled": True},
    }
    try:
        intent = client().v1.payment_intents.create(
            params=params, options={"idempotency_key": f"insightshop-order-{order.id}-{to_cents(order.total)}"}
        )
    except stripe.StripeError as error:
        raise _unavailable(error) from None
    order.payment_provider = NAME
    order.payment_intent_id = intent.id
    record(order, NAME, intent.status, order.total, intent_id=intent.id)
    db.session.commit()
    return Intent(NAME, intent.id, intent.client_secret, order.total, order.currency)


def handle_webhook(payload: bytes, signature: str | None) -> dict:
    """Verify and apply one webhook event; a replayed event changes nothing."""
    secret = current_app.config.get("STRIPE_WEBHOOK_SECRET")
    if not secret:
        raise Unavailable("Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)")
    try:
        event = stripe.Webhook.construct_event(payload.decode("utf-8"), signature, secret)
    except (stripe.SignatureVerificationError, ValueError) as error:
        raise Invalid(f"Webhook signature check failed: {error}", code=ErrorCode.SIGNATURE_INVALID) from None
    if db.session.scalar(select(PaymentLog.id).where(PaymentLog.event_id == event.id)) is not None:
        return {"received": True, "duplicate": True}
    intent = event.data.object.to_dict()  # plain data from here on
    order = _order_for(intent)
    amount = Decimal(intent.get("amount", 0)) / 100
    if event.type == "payment_intent.succeeded":
        card = _card(intent)
        record(
            order,
            NAME,
            "succeeded",
            amount,
            intent_id=intent.get("id"),
            event_id=event.id,
            brand=card[0],
            last4=card[1],
        )
        if order is not None and to_cents(order.total) == intent.get("amount"):
            mark_paid(order, provider=NAME, method=f"{(card[0] or 'card').capitalize()} •••• {card[1] or '????'}",
                      actor="stripe webhook")  # fmt: skip
    elif event.type == "payment_intent.payment_failed":
        message = (intent.get("last_payment_error") or {}).get("message") or "The payment failed"
        record(order, NAME, "failed", amount, intent_id=intent.get("id"), event_id=event.id, error=message)
        if order is not None:
            order.events.append(
                OrderEvent(status=order.status, note=f"Payment failed: {message}", actor="stripe webhook")
            )
    else:
        record(order, NAME, event.type[:32], amount, intent_id=intent.get("id"), event_id=event.id)
    db.session.commit()
    return {"received": True, "duplicate": False, "type": event.type}


def refund(order: Order, amount: Decimal) -> str:
    try:
        result = client().v1.refunds.create(
            params={"payment_intent": order.payment_intent_id, "amount": to_cents(amount)},
            options={"idempotency_key": f"insightshop-refund-{order.id}-{to_cents(amount)}-{len(order.events)}"},
        )
    except stripe.StripeError as error:
        raise _unavailable(error) from None
    record(order, NAME, result.status, amount, kind="refund", intent_id=order.payment_intent_id, event_id=result.id)
    return result.id


def _order_for(intent) -> Order | None:
    order = db.session.scalar(select(Order).where(Order.payment_intent_id == intent.get("id")))
    if order is None:
        order_id = (intent.get("metadata") or {}).get("order_id")
        order = db.session.get(Order, int(order_id)) if order_id and str(order_id).isdigit() else None
    return order


def _card(intent) -> tuple[str | None, str | None]:
    charge = ((intent.get("charges") or {}).get("data") or [None])[0] or {}
    details = ((charge.get("payment_method_details") or {}).get("card")) or {}
    return details.get("brand"), details.get("last4")


def _unavailable(error: stripe.StripeError) -> DomainError:
    if isinstance(error, stripe.CardError):
        return Conflict(error.user_message or "The card was declined", code=ErrorCode.PAYMENT_DECLINED)
    return Unavailable(f"The payment service is unavailable: {error.user_message or type(error).__name__}",
                       code=ErrorCode.PAYMENT_FAILED)  # fmt: skip
