"""Handlers of the shopper servicing tools (insight_shop_service_tools.json): arguments → one service call → the
result as JSON-safe data. Rules live in services.receipts.analytics and services.order_servicing."""

from __future__ import annotations

from datetime import date

from ..models.orders import Order
from ..services import order_servicing
from ..services.actors import Actor
from ..services.receipts import analytics

SCOPE_KEYS = ("merchant", "category", "item")


def _scope(args: dict) -> analytics.Scope:
    days = {key: date.fromisoformat(args[key]) if args.get(key) else None for key in ("date_from", "date_to")}
    return analytics.Scope(**days, **{key: args.get(key) for key in SCOPE_KEYS})


def _linked(source: dict) -> dict:
    """A cited source with the receipt page that highlights it (the citation links' contract)."""
    return source | {"url": f"/receipts/{source['receipt_id']}?field={source['field']}"}


def receipts_spending(actor: Actor, args: dict, _token) -> dict:
    found = analytics.spending(actor, _scope(args), group_by=args.get("group_by"))
    return found | {"sources": [_linked(s) for s in found["sources"]]}


def receipts_extreme(actor: Actor, args: dict, _token) -> dict:
    found = analytics.extreme(actor, _scope(args), args["which"])
    return found | {"found": _linked(found["found"]) if found["found"] else None}


def receipts_compare(actor: Actor, args: dict, _token) -> dict:
    periods = [(date.fromisoformat(p["date_from"]), date.fromisoformat(p["date_to"])) for p in args["periods"]]
    found = analytics.compare(actor, _scope(args), periods)
    return found | {"periods": [p | {"sources": [_linked(s) for s in p["sources"]]} for p in found["periods"]]}


def order_summary(order: Order) -> dict:
    """An order as the servicing tools return it: status, total, dates and its lines."""
    return {"id": order.id, "status": order.status, "total": f"{order.total:.2f}", "currency": order.currency,
            "created_at": order.created_at.isoformat(), "item_count": order.item_count,
            "delivered_at": order.delivered_at.isoformat() if order.delivered_at else None,
            "items": [{"name": i.name, "color": i.color, "size": i.size, "quantity": i.quantity,
                       "line_total": f"{i.line_total:.2f}"} for i in order.items],
            "url": f"/orders/{order.id}"}  # fmt: skip


def order_cancel_mine(actor: Actor, args: dict, _token) -> dict:
    order = order_servicing.cancel_my_order(actor, args.get("order_id"))
    return {"order": order_summary(order), "refunded": f"{order.total:.2f}" if order.is_paid else None}


def order_refund_status(actor: Actor, args: dict, _token) -> dict:
    status = order_servicing.refund_status(actor, args.get("order_id"))
    found = [{"id": r.id, "status": r.status, "label": r.label, "requested_at": r.requested_at.isoformat(),
              "refund_amount": f"{r.refund_amount:.2f}",
              "lines": [{"name": line.name, "quantity": line.quantity} for line in r.lines]}
             for r in status.returns]  # fmt: skip
    return {"order": order_summary(status.order), "state": status.state, "returns": found,
            "refunded": f"{status.refunded:.2f}"}  # fmt: skip


def order_return_eligibility(actor: Actor, args: dict, _token) -> dict:
    found = order_servicing.return_eligibility(actor, args.get("order_id"))
    return {"order": order_summary(found.order), "eligible": found.eligible, "reason": found.reason,
            "window_days": found.window_days, "until": found.until.isoformat() if found.until else None}  # fmt: skip


HANDLERS = {
    "receipts_spending": receipts_spending,
    "receipts_extreme": receipts_extreme,
    "receipts_compare": receipts_compare,
    "order_cancel_mine": order_cancel_mine,
    "order_refund_status": order_refund_status,
    "order_return_eligibility": order_return_eligibility,
}
PRECONDITIONS = {"order_cancel_mine": lambda actor, a: order_servicing.check_cancel(actor, a.get("order_id"))}
