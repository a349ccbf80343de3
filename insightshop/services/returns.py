"""Returns: customers ask within the return window; an admin approves (restock + refund) or rejects."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..models.base import utcnow
from ..models.orders import Order, OrderEvent, ReturnItem, ReturnRequest
from . import order_events, orders, pricing
from .actors import Actor
from .errors import Conflict, ErrorCode, Forbidden, Invalid, NotFound
from .payments import provider_for


def request_return(actor: Actor, order_id: int, items: list[dict], token: str | None = None) -> ReturnRequest:
    """Ask to return delivered items (order_item_id, quantity, reason each) within the return window."""
    orders.get_order(actor, order_id, token)  # 404 for anyone who may not see it
    return orders.write_transaction(lambda: _request_locked(orders.lock_order_and_cart(order_id), items))


def _request_locked(order, items: list[dict]) -> ReturnRequest:
    # Under the order's lock: two requests at once cannot both claim the same returnable units.
    window = timedelta(days=current_app.config["RETURN_WINDOW_DAYS"])
    if order.status != "delivered" or order.delivered_at is None or utcnow() - order.delivered_at > window:
        raise Conflict(f"Only delivered orders can be returned, within {window.days} days of delivery",
                       code=ErrorCode.RETURN_NOT_ALLOWED)  # fmt: skip
    by_id = {item.id: item for item in order.items}
    request = ReturnRequest(order_id=order.id, status="requested")
    for index, wanted in enumerate(items):
        item = by_id.get(wanted["order_item_id"])
        if item is None:
            raise Invalid(f"items.{index}.order_item_id: not an item of order {order.id}",
                          details=[{"field": f"items.{index}.order_item_id", "message": "not in this order"}])  # fmt: skip
        pending = sum(r.quantity for r in _pending_items(item.id))
        available = item.quantity - item.returned_quantity - pending
        if not 1 <= wanted["quantity"] <= available:
            what = (
                f"You can return at most {available} of {item.name}"
                if available
                else f"{item.name} is already being returned"
            )
            raise Invalid(what,
                          details=[{"field": f"items.{index}.quantity", "message": f"at most {available}"}])  # fmt: skip
        request.items.append(
            ReturnItem(order_item_id=item.id, quantity=wanted["quantity"], reason=wanted["reason"].strip())
        )
    db.session.add(request)
    order.events.append(OrderEvent(status=order.status, note="Return requested", actor=order.email))
    db.session.flush()
    order_events.announce(order, "return_requested", return_id=request.id)
    db.session.commit()
    return request


def get_return(actor: Actor, return_id: int) -> ReturnRequest:
    """A return request its order's owner (or an admin) may see."""
    request = db.session.get(ReturnRequest, return_id)
    if request is None or not orders.can_access(actor, request.order):
        raise NotFound(f"Return {return_id} does not exist")
    return request


def decide_return(actor: Actor, return_id: int, approve: bool, note: str = "") -> ReturnRequest:
    """Approve (restock the items, refund them with their tax share) or reject a requested return."""
    if not actor.is_admin:
        raise Forbidden("Only admins decide returns")
    found = db.session.get(ReturnRequest, return_id)
    if found is None:
        raise NotFound(f"Return {return_id} does not exist")
    order_id = found.order_id

    def work() -> ReturnRequest:
        # The order and the request are locked and re-read: a return is decided (and restocked, refunded) once.
        order = orders.lock_order_and_cart(order_id)
        request = db.session.scalar(select(ReturnRequest).where(ReturnRequest.id == return_id).with_for_update()
                                    .execution_options(populate_existing=True))  # fmt: skip
        _decide_locked(actor, order, request, approve, note)
        db.session.commit()
        return request

    return orders.write_transaction(work)


def _decide_locked(actor: Actor, order, request: ReturnRequest, approve: bool, note: str) -> None:
    if request.status != "requested":
        raise Conflict(f"This return was already {request.status}", code=ErrorCode.INVALID_TRANSITION)
    request.decided_by, request.decision_note = actor.user.email, note
    if not approve:
        request.status = "rejected"
        order.events.append(
            OrderEvent(status=order.status, note=f"Return #{request.id} rejected", actor=actor.user.email)
        )
        order_events.announce(order, "return_rejected", return_id=request.id, note=note)
        return
    goods = sum((ri.order_item.unit_price * ri.quantity for ri in request.items), Decimal("0"))
    base = order.subtotal - order.discount
    tax_share = pricing.quantize(goods * order.tax / base) if base > 0 else Decimal("0.00")
    amount = pricing.quantize(goods) + tax_share
    for returned in request.items:
        returned.order_item.returned_quantity += returned.quantity
    orders.restock([(returned.order_item.variant_id, returned.quantity) for returned in request.items])
    provider_for(order).refund(order, amount)
    request.status, request.refund_amount = "approved", amount
    order.events.append(OrderEvent(status=order.status, note=f"Return #{request.id} approved, refunded {amount:.2f}",
                                   actor=actor.user.email))  # fmt: skip
    order_events.announce(order, "return_approved", return_id=request.id, refund=str(amount))


@dataclass(frozen=True)
class ReturnLine:
    name: str
    quantity: int
    reason: str


RETURN_STATUS_LABELS = {"requested": "Waiting for review", "approved": "Approved", "rejected": "Declined"}


@dataclass(frozen=True)
class ReturnSummary:
    id: int
    status: str  # requested, approved, rejected
    requested_at: datetime
    refund_amount: Decimal
    lines: list[ReturnLine]

    @property
    def label(self) -> str:
        return RETURN_STATUS_LABELS.get(self.status, self.status)


def returns_for_order(order: Order) -> list[ReturnSummary]:
    """The order's return requests, newest first, as the customer sees them."""
    requests = db.session.scalars(
        db.select(ReturnRequest).where(ReturnRequest.order_id == order.id).order_by(ReturnRequest.id.desc())
    )
    names = {item.id: item.name for item in order.items}
    return [ReturnSummary(r.id, r.status, r.created_at, r.refund_amount,
                          [ReturnLine(names.get(i.order_item_id, "Item"), i.quantity, i.reason) for i in r.items])
            for r in requests]  # fmt: skip


def returnable_quantities(order: Order) -> dict[int, int]:
    """How many units of each order item can still be asked back (not returned, not already requested)."""
    return {item.id: max(0, item.quantity - item.returned_quantity - sum(r.quantity for r in _pending_items(item.id)))
            for item in order.items}  # fmt: skip


def _pending_items(order_item_id: int) -> list[ReturnItem]:
    return list(
        db.session.scalars(
            db.select(ReturnItem)
            .join(ReturnRequest)
            .where(ReturnItem.order_item_id == order_item_id, ReturnRequest.status == "requested")
        )
    )
