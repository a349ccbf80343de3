"""The offline test provider: behaves like Stripe test mode with its well-known test cards. No money moves."""

from __future__ import annotations

import secrets
from decimal import Decimal

from sqlalchemy import select

from ...extensions import db
from ...models.orders import Order
from .. import orders
from ..errors import Conflict, ErrorCode, Invalid, NotFound
from . import Intent, check_payable, mark_paid, record

NAME = "offline"
# Stripe's test cards: number → (outcome, brand, message)
TEST_CARDS = {
    "4242424242424242": ("succeeded", "visa", None),
    "5555555555554444": ("succeeded", "mastercard", None),
    "378282246310005": ("succeeded", "amex", None),
    "4000000000000002": ("card_declined", "visa", "Your card was declined."),
    "4000000000009995": ("insufficient_funds", "visa", "Your card has insufficient funds."),
    "4000000000000069": ("expired_card", "visa", "Your card has expired."),
}


def create_intent(order: Order) -> Intent:
    """A test PaymentIntent for the order (called under the order's lock; created once)."""
    if not (order.payment_provider == NAME and order.payment_intent_id):
        order.payment_provider = NAME
        order.payment_intent_id = f"pi_offline_{secrets.token_hex(12)}"
        record(order, NAME, "requires_payment_method", order.total, intent_id=order.payment_intent_id)
        db.session.commit()
    return resume_intent(order)


def resume_intent(order: Order) -> Intent:
    """The order's existing test intent (writes nothing)."""
    secret = f"{order.payment_intent_id}_secret_{order.guest_token[:12]}"
    return Intent(NAME, order.payment_intent_id, secret, order.total, order.currency)


def find_order(payment_intent_id: str) -> Order:
    order = db.session.scalar(
        select(Order).where(Order.payment_intent_id == payment_intent_id, Order.payment_provider == NAME)
    )
    if order is None:
        raise NotFound("No payment with that id")
    return order


def confirm(order: Order, card_number: str, *, actor: str = "customer") -> Order:
    """Settle a payment with a test card number: success marks the order paid (once, under the order's row lock);
    anything else is logged and refused. A second payment of the same order is refused with already_paid."""
    digits = "".join(ch for ch in (card_number or "") if ch.isdigit())
    if not 12 <= len(digits) <= 19 or not _luhn_ok(digits):
        raise Invalid("That card number is not valid", code=ErrorCode.VALIDATION_ERROR,
                      details=[{"field": "card_number", "message": "not a valid card number"}])  # fmt: skip
    outcome, brand, message = TEST_CARDS.get(digits, ("card_declined", _brand(digits), "Your card was declined. "
                                             "Test payments accept Stripe's test cards, e.g. 4242 4242 4242 4242."))  # fmt: skip
    order_id = order.id

    def work() -> Order:
        locked = orders.lock_order_and_cart(order_id)
        check_payable(locked)
        record(locked, NAME, outcome, locked.total, intent_id=locked.payment_intent_id, brand=brand,
               last4=digits[-4:], error=message)  # fmt: skip
        if outcome != "succeeded":
            db.session.commit()
            raise Conflict(message, code=ErrorCode.PAYMENT_DECLINED, details=[{"decline_code": outcome}])
        if not mark_paid(locked, provider=NAME, method=f"{brand.capitalize()} •••• {digits[-4:]} (test)", actor=actor):
            raise Conflict(f"Order {order_id} is already {locked.status}", code=ErrorCode.ALREADY_PAID)
        db.session.commit()
        return locked

    return orders.write_transaction(work)


def refund(order: Order, amount: Decimal) -> str:
    """Refund through the test provider (recorded, nothing to call)."""
    refund_id = f"re_offline_{secrets.token_hex(8)}"
    record(order, NAME, "succeeded", amount, kind="refund", intent_id=order.payment_intent_id, event_id=refund_id)
    return refund_id


def _luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _brand(digits: str) -> str:
    if digits.startswith("4"):
        return "visa"
    if digits[:2] in {"51", "52", "53", "54", "55"}:
        return "mastercard"
    if digits[:2] in {"34", "37"}:
        return "amex"
    return "card"
