"""A shopper servicing their own orders: cancel one that has not shipped, where its refund or return stands, and
whether it can still be returned. Mine only: another person's order does not exist here (an admin's too: an admin
changes other people's orders through admin_orders). With no order number the most fitting recent one is meant
("cancel my last order", "where is my refund")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..models.base import utcnow
from ..models.orders import Order, PaymentLog, ReturnRequest
from . import admin_orders, orders, returns
from .actors import Actor
from .errors import Conflict, ErrorCode, NotFound

RECENT = 20  # orders looked through to find "my last order that …"


def my_order(actor: Actor, order_id: int | None = None, *, prefer=None) -> Order:
    """The caller's own order by number, or (no number) the newest one `prefer` accepts, else the newest one."""
    if order_id is not None:
        order = db.session.get(Order, order_id)
        if order is None or not _mine(actor, order):
            raise NotFound(f"Order {order_id} does not exist")
        return order
    recent = orders.recent_orders(actor, RECENT)
    if not recent:
        raise NotFound("You have no orders yet")
    return next((order for order in recent if prefer is not None and prefer(order)), recent[0])


def _mine(actor: Actor, order: Order) -> bool:
    if actor.user is not None:
        return order.user_id == actor.user.id
    return actor.guest_id is not None and order.cart_guest_id == actor.guest_id


# Cancel --------------------------------------------------------------------------------------------------------------


def check_cancel(actor: Actor, order_id: int | None = None) -> Order:
    """The order cancel_my_order would cancel; refused (nothing changed) when it is not the caller's or has shipped."""
    order = my_order(actor, order_id)  # "cancel my last order" when it has shipped: refused, never an older one
    _check_cancellable(order)
    return order


def _check_cancellable(order: Order) -> None:
    if order.can_change_to("cancelled"):
        return
    if order.status in ("shipped", "delivered"):
        what = (f"Order #{order.id} has already shipped, so it can no longer be cancelled; once it arrives you can "
                f"return it within {_window_days()} days of delivery")  # fmt: skip
    else:
        what = f"Order #{order.id} is already {order.status}"
    raise Conflict(what, code=ErrorCode.INVALID_TRANSITION,
                   details=[{"order_id": order.id, "status": order.status}])  # fmt: skip


def cancel_my_order(actor: Actor, order_id: int | None = None) -> Order:
    """Cancel the caller's order that has not shipped: its items go back in stock and a paid order is refunded in
    full, exactly as when the shop cancels it (admin_orders.cancel_and_refund)."""
    chosen = check_cancel(actor, order_id).id
    label = actor.user.email if actor.user is not None else "guest"

    def work() -> Order:
        order = orders.lock_order_and_cart(chosen)  # re-read under its lock: a racing payment or ship acts first
        _check_cancellable(order)
        admin_orders.cancel_and_refund(order, actor_label=label, note="Cancelled by the customer")
        db.session.commit()
        return order

    return orders.write_transaction(work)


# Refunds and returns --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefundStatus:
    order: Order
    state: str  # return_requested, return_approved, return_rejected, cancelled_refunded, cancelled_unpaid, none
    returns: list[returns.ReturnSummary]
    refunded: Decimal  # everything refunded on the order so far


def refund_status(actor: Actor, order_id: int | None = None) -> RefundStatus:
    """Where the caller's refund stands: the order's newest return request and what was refunded (with no number,
    the newest order with a return request, else the newest cancelled paid order, else the newest order)."""
    order = my_order(actor, order_id) if order_id is not None else _refund_order(actor)
    found = returns.returns_for_order(order)
    refunded = sum((log.amount for log in _refunds(order)), Decimal("0.00"))
    if found:
        state = f"return_{found[0].status}"
    elif order.status == "cancelled":
        state = "cancelled_refunded" if order.is_paid else "cancelled_unpaid"
    else:
        state = "none"
    return RefundStatus(order, state, found, refunded)


def _refund_order(actor: Actor) -> Order:
    recent = orders.recent_orders(actor, RECENT)
    if not recent:
        raise NotFound("You have no orders yet")
    returned = next((order for order in recent if _has_return(order)), None)
    refunded = next((order for order in recent if order.status == "cancelled" and order.is_paid), None)
    return returned or refunded or recent[0]


def _has_return(order: Order) -> bool:
    return db.session.scalar(select(ReturnRequest.id).where(ReturnRequest.order_id == order.id).limit(1)) is not None


def _refunds(order: Order) -> list[PaymentLog]:
    return list(db.session.scalars(select(PaymentLog).where(PaymentLog.order_id == order.id,
                                                            PaymentLog.kind == "refund",
                                                            PaymentLog.status == "succeeded")))  # fmt: skip


@dataclass(frozen=True)
class ReturnEligibility:
    order: Order
    eligible: bool
    reason: str  # within_window, window_closed, not_delivered, cancelled, all_returned
    window_days: int
    until: date | None  # the last day a return may be asked (delivered orders)


def return_eligibility(actor: Actor, order_id: int | None = None) -> ReturnEligibility:
    """Whether the caller can still return the order, from its delivery date and the shop's return window (the rule
    returns.request_return applies); with no number, the newest delivered order, else the newest order."""
    order = my_order(actor, order_id, prefer=lambda o: o.status == "delivered")
    days = _window_days()
    until = (order.delivered_at + timedelta(days=days)).date() if order.delivered_at else None
    if order.status == "cancelled":
        return ReturnEligibility(order, False, "cancelled", days, None)
    if order.status != "delivered" or order.delivered_at is None:
        return ReturnEligibility(order, False, "not_delivered", days, None)
    if utcnow() - order.delivered_at > timedelta(days=days):
        return ReturnEligibility(order, False, "window_closed", days, until)
    if not any(returns.returnable_quantities(order).values()):
        return ReturnEligibility(order, False, "all_returned", days, until)
    return ReturnEligibility(order, True, "within_window", days, until)


def _window_days() -> int:
    return int(current_app.config["RETURN_WINDOW_DAYS"])
