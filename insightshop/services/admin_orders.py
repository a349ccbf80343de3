"""Admin order management: filtered lists, status changes along the allowed transitions, refunds on cancel."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select

from ..extensions import db
from ..models.orders import ORDER_STATUSES, ORDER_TRANSITIONS, Order, PaymentLog, ReturnRequest
from ..schemas.validation import row_id
from . import audit, orders, returns
from .actors import Actor
from .errors import Conflict, ErrorCode, Invalid, NotFound
from .payments import provider_for


@dataclass
class OrderListPage:
    orders: list[Order]
    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


# A status an admin says that is several: paid or being packed, not yet shipped.
STATUS_GROUPS = {"unshipped": ("paid", "processing")}


def list_orders(*, page: int = 1, per_page: int = 20, status: str | None = None, user_id: int | None = None,
                search: str | None = None, sort: str = "newest") -> OrderListPage:  # fmt: skip
    """Orders newest (or oldest) first, by status ("unshipped": paid or processing), customer, or a search over
    email, name and order number."""
    statement = select(Order)
    if status in STATUS_GROUPS:
        statement = statement.where(Order.status.in_(STATUS_GROUPS[status]))
    elif status:
        if status not in ORDER_STATUSES:
            raise Invalid(
                f"status must be one of {', '.join(ORDER_STATUSES)}",
                details=[{"field": "status", "message": "unknown"}],
            )
        statement = statement.where(Order.status == status)
    if user_id:
        statement = statement.where(Order.user_id == user_id)
    if search:
        term = search.strip().lstrip("#")
        pattern = f"%{term}%"
        statement = statement.where(or_(Order.email.ilike(pattern), Order.shipping_name.ilike(pattern),
                                        Order.tracking_number.ilike(pattern),
                                        Order.id == (row_id(term) or -1)))  # fmt: skip
    total = db.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    order = (Order.created_at.asc(), Order.id.asc()) if sort == "oldest" else (Order.id.desc(),)
    rows = db.session.scalars(statement.order_by(*order).limit(per_page).offset((page - 1) * per_page))
    return OrderListPage(list(rows), total, page, per_page)


def get_order(order_id: int) -> Order:
    order = db.session.get(Order, order_id)
    if order is None:
        raise NotFound(f"Order {order_id} does not exist")
    return order


def change_status(actor: Actor, order_id: int, status: str, *, carrier: str | None = None,
                  tracking_number: str | None = None, note: str = "") -> Order:  # fmt: skip
    """Move an order to a new status: shipped needs a carrier and tracking number; cancelling a paid order
    puts the items back in stock and refunds the payment."""
    _check_status(status)

    def work() -> Order:
        # The order's row is locked and re-read: a cancel racing a payment or another cancel acts once.
        order = orders.lock_order_and_cart(order_id)
        _apply_status(actor, order, status, carrier, tracking_number, note)
        db.session.commit()
        return order

    return orders.write_transaction(work)


def check_status_change(order_id: int, status: str, carrier: str | None = None,
                        tracking_number: str | None = None) -> None:  # fmt: skip
    """Refuse, without changing anything, a status change change_status would refuse: an unknown order or status,
    a transition the order cannot make, shipping without a carrier and tracking number (asked before a
    confirmation is proposed; change_status checks again under the order's lock)."""
    _check_status(status)
    check_transition(get_order(order_id), status, carrier, tracking_number)


def check_transition(order: Order, status: str, carrier: str | None, tracking_number: str | None) -> None:
    """The rule of an admin status change, for the panel, the API and the assistant alike."""
    if not order.can_change_to(status):
        allowed = ORDER_TRANSITIONS.get(order.status, ())
        raise Conflict(f"An order cannot go from {order.status} to {status}"
                       + (f" (order #{order.id} can become {' or '.join(allowed)})" if allowed else ""),
                       code=ErrorCode.INVALID_TRANSITION,
                       details=[{"from": order.status, "to": status, "allowed": list(allowed)}])  # fmt: skip
    if status != "shipped":
        return
    missing = [field for field, value in (("carrier", carrier), ("tracking_number", tracking_number))
               if not (value or "").strip()]  # fmt: skip
    if missing:
        raise Invalid("Shipping needs a carrier and a tracking number",
                      details=[{"field": field, "message": "required"} for field in missing])  # fmt: skip
    taken = db.session.scalar(select(Order.id).where(Order.tracking_number == tracking_number.strip()[:100],
                                                     Order.id != order.id))  # fmt: skip
    if taken is not None:
        raise Conflict(f"Tracking number {tracking_number.strip()[:100]} is already used by order #{taken}",
                       details=[{"field": "tracking_number", "message": "already used"}])  # fmt: skip


def _check_status(status: str) -> None:
    if status not in ORDER_STATUSES:
        raise Invalid(
            f"status must be one of {', '.join(ORDER_STATUSES)}", details=[{"field": "status", "message": "unknown"}]
        )


def _apply_status(actor: Actor, order: Order, status: str, carrier: str | None, tracking_number: str | None,
                  note: str) -> None:  # fmt: skip
    before = {"status": order.status, "carrier": order.carrier, "tracking_number": order.tracking_number}
    check_transition(order, status, carrier, tracking_number)
    if status == "shipped":
        order.carrier, order.tracking_number = carrier.strip()[:50], tracking_number.strip()[:100]
    label = actor.user.email
    if status == "cancelled":
        cancel_and_refund(order, actor_label=label, note=note or "Cancelled by the shop")
    else:
        orders.set_status(order, status, actor_label=label, note=note or f"Status set to {status}", commit=False)
    audit.record(actor, "order.status", "order", order.id, before=before,
                 after={"status": order.status, "carrier": order.carrier, "tracking_number": order.tracking_number})  # fmt: skip


def cancel_and_refund(order: Order, *, actor_label: str, note: str) -> None:
    """Cancel an order the caller holds locked (its items go back in stock) and refund a paid one in full: the one
    cancel rule of the admin panel, the API and the shopper's own cancel (the caller commits)."""
    was_paid = order.is_paid
    orders.cancel_order(order, actor_label=actor_label, note=note, commit=False)
    if was_paid:
        refund_id = provider_for(order).refund(order, order.total)
        order.events[-1].note += f"; refunded {order.total:.2f} ({refund_id})"


def list_payments(*, status: str | None = None, provider: str | None = None, order_id: int | None = None,
                  limit: int = 100) -> list[PaymentLog]:  # fmt: skip
    """Payment attempts and events, newest first."""
    statement = select(PaymentLog).order_by(PaymentLog.id.desc())
    if status:
        statement = statement.where(PaymentLog.status == status)
    if provider:
        statement = statement.where(PaymentLog.provider == provider)
    if order_id:
        statement = statement.where(PaymentLog.order_id == order_id)
    return list(db.session.scalars(statement.limit(limit)))


def list_returns(status: str | None = None) -> list[ReturnRequest]:
    statement = select(ReturnRequest).order_by(ReturnRequest.id.desc())
    if status:
        statement = statement.where(ReturnRequest.status == status)
    return list(db.session.scalars(statement.limit(200)))


def decide_return(actor: Actor, return_id: int, approve: bool, note: str = "") -> ReturnRequest:
    """Approve or reject a return (audited)."""
    request = returns.decide_return(actor, return_id, approve, note)
    audit.record(actor, "return.approve" if approve else "return.reject", "return", request.id,
                 after={"status": request.status, "refund_amount": str(request.refund_amount)})  # fmt: skip
    db.session.commit()
    return request
