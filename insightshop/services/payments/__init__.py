"""Payments behind one interface: Stripe when STRIPE_SECRET_KEY is set, else the offline test provider."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import Decimal

from flask import current_app

from ...extensions import db
from ...models.base import utcnow
from ...models.cart import CartItem
from ...models.orders import Order, OrderEvent, PaymentLog
from .. import order_events, orders, reviews
from ..errors import Conflict, ErrorCode, Unavailable
from ..receipts import order_records

# When the payment provider fails, the shopper may try again after this many seconds: the order keeps its stock
# until its hold time (UNPAID_ORDER_MINUTES) runs out, and a retry never starts a second payment.
PROVIDER_RETRY_AFTER = 10
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Intent:
    provider: str
    payment_intent_id: str
    client_secret: str
    amount: Decimal
    currency: str


def provider_name() -> str:
    return "stripe" if current_app.config.get("STRIPE_SECRET_KEY") else "offline"


def provider():
    """The active payment provider module."""
    from . import offline, stripe_provider

    return stripe_provider if provider_name() == "stripe" else offline


def provider_for(order: Order):
    """The provider that took an order's payment (for refunds)."""
    from . import offline, stripe_provider

    return stripe_provider if order.payment_provider == "stripe" else offline


def create_intent(order: Order) -> Intent:
    """Start (or resume) paying an order: the amount always comes from the order's server-side total. An order's
    intent is created once, under the order's lock, and reused afterwards (viewing the pay page writes nothing).
    A provider that cannot be reached is a 503 (payment_failed): the order stays pending with its stock held."""
    try:
        return _create_intent(order)
    except OSError as error:  # timeouts and refused connections below the provider's own error handling
        raise provider_unavailable(error) from None


def provider_unavailable(error: Exception) -> Unavailable:
    """The payment provider failed: what the shopper is told (the order waits, nothing was charged)."""
    log.warning("Payment provider %s failed: %s: %s", provider_name(), type(error).__name__, error)
    return Unavailable("The payment service is unavailable right now; nothing was charged and your order is kept. "
                       "Please try again in a moment.", code=ErrorCode.PAYMENT_FAILED,
                       retry_after=PROVIDER_RETRY_AFTER)  # fmt: skip


def _create_intent(order: Order) -> Intent:
    if order.can_pay() and not orders.hold_expired(order) and order.payment_intent_id \
            and order.payment_provider == provider_name():  # fmt: skip
        return provider().resume_intent(order)
    order_id = order.id

    def work() -> Intent:
        locked = orders.lock_order_and_cart(order_id)
        check_payable(locked)
        if locked.payment_intent_id and locked.payment_provider == provider_name():
            return provider().resume_intent(locked)
        return provider().create_intent(locked)

    return orders.write_transaction(work)


def check_payable(order: Order) -> None:
    """Under the order's lock: only a pending order inside its hold time may be paid. An overdue one is expired
    on the spot (its stock goes back) and refused with order_expired."""
    if orders.hold_expired(order):
        orders.expire_order(order)
        db.session.commit()
        raise Conflict(f"Order {order.id} expired: it was not paid within "
                       f"{orders.hold_minutes(order)} minutes. Please check out again.",
                       code=ErrorCode.ORDER_EXPIRED)  # fmt: skip
    if not order.can_pay():
        raise Conflict(f"Order {order.id} is {order.status} and cannot be paid", code=ErrorCode.ALREADY_PAID,
                       details=[{"status": order.status}])  # fmt: skip


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def record(order: Order | None, provider: str, status: str, amount: Decimal, *, kind: str = "payment",
           intent_id: str | None = None, event_id: str | None = None, brand: str | None = None,
           last4: str | None = None, error: str | None = None) -> PaymentLog:  # fmt: skip
    """Log one payment attempt or event (never a full card number)."""
    log = PaymentLog(order_id=order.id if order else None, provider=provider, kind=kind, amount=amount, status=status,
                     intent_id=intent_id, event_id=event_id, card_brand=brand, card_last4=last4,
                     error_message=(error or None) and error[:500])  # fmt: skip
    db.session.add(log)
    return log


def mark_paid(order: Order, *, provider: str, method: str, actor: str = "payment provider") -> bool:
    """The one transition to paid: a pending order becomes paid exactly once; False when it was not pending.

    Callers run inside orders.write_transaction and hold the order's row lock (orders.lock_order_and_cart);
    the status is re-read under that lock here, so two payments can never both see "pending"."""
    locked = orders.lock_order(order.id) or order
    if locked.is_paid or locked.status != "pending":
        return False
    locked.paid_at = utcnow()
    locked.status = "paid"
    locked.payment_provider = provider
    locked.payment_method = method
    note = f"Paid by {method}"
    if provider == "offline":
        note += " — TEST PAYMENT: the offline test provider moved no money"
    locked.events.append(OrderEvent(status="paid", note=note, actor=actor))
    # The cart that became this order is emptied only now, so a declined card leaves it as it was.
    owner = CartItem.user_id == locked.user_id if locked.user_id else CartItem.guest_id == locked.cart_guest_id
    bought = [item.variant_id for item in locked.items if item.variant_id]
    db.session.query(CartItem).filter(owner, CartItem.variant_id.in_(bought)).delete(synchronize_session=False)
    # Reviews the buyer wrote before paying now count as verified purchases.
    reviews.verify_purchases(locked)
    order_records.record_order_receipt(locked)
    order_events.announce(locked, "paid")
    return True
