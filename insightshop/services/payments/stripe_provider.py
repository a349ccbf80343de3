"""Stripe: PaymentIntents with the official SDK, webhooks verified with the endpoint secret."""

from __future__ import annotations

from decimal import Decimal

import stripe
from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models.orders import Order, OrderEvent, PaymentLog
from ...schemas.validation import row_id
from .. import orders
from ..errors import Conflict, DomainError, ErrorCode, Invalid, Unavailable
from . import Intent, mark_paid, provider_unavailable, record, to_cents

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


def resume_intent(order: Order) -> Intent:
    """The order's existing PaymentIntent, read back from Stripe for its client secret (writes nothing here)."""
    try:
        intent = client().v1.payment_intents.retrieve(order.payment_intent_id)
    except stripe.StripeError as error:
        raise _unavailable(error) from None
    return Intent(NAME, intent.id, intent.client_secret, order.total, order.currency)


def handle_webhook(payload: bytes, signature: str | None) -> dict:
    """Verify and apply one webhook event; a replayed event (even ten at once) changes nothing."""
    secret = current_app.config.get("STRIPE_WEBHOOK_SECRET")
    if not secret:
        raise Unavailable("Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)")
    try:
        event = stripe.Webhook.construct_event(payload.decode("utf-8"), signature, secret)
    except (stripe.SignatureVerificationError, ValueError) as error:
        raise Invalid(f"Webhook signature check failed: {error}", code=ErrorCode.SIGNATURE_INVALID) from None
    intent = event.data.object.to_dict()  # plain data from here on
    try:
        return orders.write_transaction(lambda: _apply(event, intent))
    except IntegrityError:  # another delivery of this event recorded it first (unique event_id)
        db.session.rollback()
        return {"received": True, "duplicate": True}


def _apply(event, intent: dict) -> dict:
    order = _order_for(intent)
    if order is not None:
        order = orders.lock_order_and_cart(order.id)  # deliveries for one order run one after the other
    if db.session.scalar(select(PaymentLog.id).where(PaymentLog.event_id == event.id)) is not None:
        return {"received": True, "duplicate": True}
    amount = Decimal(intent.get("amount", 0)) / 100
    if event.type == "payment_intent.succeeded":
        _apply_success(event, intent, order, amount)
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


def _apply_success(event, intent: dict, order: Order | None, amount: Decimal) -> None:
    """Money arrived: a pending order with the right total becomes paid; any other payment is refunded or,
    when the refund fails, flagged for review. Never silently accepted."""
    brand, last4 = _card(intent)
    log = record(order, NAME, "succeeded", amount, intent_id=intent.get("id"), event_id=event.id, brand=brand,
                 last4=last4)  # fmt: skip
    if order is None:
        log.status, log.error_message = "needs_review", "No order matches this payment"
        return
    if order.status == "pending" and to_cents(order.total) == intent.get("amount"):
        mark_paid(order, provider=NAME, method=f"{(brand or 'card').capitalize()} •••• {last4 or '????'}",
                  actor="stripe webhook")  # fmt: skip
        return
    if order.is_paid and order.payment_intent_id == intent.get("id"):
        return  # this very payment was already applied
    if to_cents(order.total) != intent.get("amount"):
        reason = f"{amount:.2f} does not match the order total {order.total:.2f}"
    else:
        reason = f"the order is already {order.status}"
    try:
        refund_id = refund(order, amount, intent_id=intent.get("id"))
    except DomainError as error:
        log.status, log.error_message = "needs_review", f"{reason}; automatic refund failed: {error.message}"[:500]
        note = f"Payment needs review: {amount:.2f} received but {reason}; the automatic refund failed"
    else:
        log.status, log.error_message = "refunded", f"{reason}; refunded {refund_id}"[:500]
        note = f"Payment of {amount:.2f} refunded automatically ({refund_id}): {reason}"
    order.events.append(OrderEvent(status=order.status, note=note[:500], actor="stripe webhook"))


def refund(order: Order, amount: Decimal, *, intent_id: str | None = None) -> str:
    """Refund (part of) the order's payment; or, with `intent_id`, all of a payment the order could not take
    (refunded once per intent, however often its webhook arrives)."""
    key = (f"insightshop-refund-intent-{intent_id}" if intent_id
           else f"insightshop-refund-{order.id}-{to_cents(amount)}-{len(order.events)}")  # fmt: skip
    intent_id = intent_id or order.payment_intent_id
    try:
        result = client().v1.refunds.create(
            params={"payment_intent": intent_id, "amount": to_cents(amount)}, options={"idempotency_key": key}
        )
    except stripe.StripeError as error:
        raise _unavailable(error) from None
    record(order, NAME, result.status, amount, kind="refund", intent_id=intent_id, event_id=result.id)
    return result.id


def _order_for(intent) -> Order | None:
    order = db.session.scalar(select(Order).where(Order.payment_intent_id == intent.get("id")))
    if order is None:
        order_id = (intent.get("metadata") or {}).get("order_id")
        number = row_id(str(order_id or ""))
        order = db.session.get(Order, number) if number else None
    return order


def _card(intent) -> tuple[str | None, str | None]:
    charge = ((intent.get("charges") or {}).get("data") or [None])[0] or {}
    details = ((charge.get("payment_method_details") or {}).get("card")) or {}
    return details.get("brand"), details.get("last4")


def _unavailable(error: stripe.StripeError) -> DomainError:
    if isinstance(error, stripe.CardError):
        return Conflict(error.user_message or "The card was declined", code=ErrorCode.PAYMENT_DECLINED)
    return provider_unavailable(error)
