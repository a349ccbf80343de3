"""Payments behind one interface: Stripe when STRIPE_SECRET_KEY is set, else the offline test provider."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from flask import current_app

from ...extensions import db
from ...models.base import utcnow
from ...models.cart import CartItem
from ...models.orders import Order, OrderEvent, PaymentLog
from ..errors import Conflict, ErrorCode


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
    """Start (or resume) paying an order: the amount always comes from the order's server-side total."""
    if not order.can_pay():
        raise Conflict(f"Order {order.id} is {order.status} and cannot be paid", code=ErrorCode.ALREADY_PAID)
    return provider().create_intent(order)


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
    """Record a successful payment once; returns False when the order was already paid."""
    if order.is_paid:
        return False
    order.paid_at = utcnow()
    order.status = "paid"
    order.payment_provider = provider
    order.payment_method = method
    order.events.append(OrderEvent(status="paid", note=f"Paid by {method}", actor=actor))
    # The cart that became this order is emptied only now, so a declined card leaves it as it was.
    owner = CartItem.user_id == order.user_id if order.user_id else CartItem.guest_id == order.cart_guest_id
    bought = [item.variant_id for item in order.items if item.variant_id]
    db.session.query(CartItem).filter(owner, CartItem.variant_id.in_(bought)).delete(synchronize_session=False)
    return True
