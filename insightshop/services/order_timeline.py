"""What a customer may read of an order's history: plain, customer-facing sentences, never the shop's internal notes
(who changed it, through which tool, card details, refund ids). Admin pages read the raw events instead."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ..models.orders import Order, OrderEvent

STATUS_TEXT = {
    "pending": "Order placed",
    "paid": "Payment received",
    "processing": "Being prepared for shipping",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Order cancelled",
}
# Events that are not a status change, recognised by how the services word their notes.
_RETURN = re.compile(r"^Return(?: #\d+)? (requested|approved|rejected)", re.I)
_PAYMENT_FAILED = re.compile(r"^Payment failed", re.I)
_REFUNDED = re.compile(r"refunded", re.I)
SHIPPING_STATUSES = ("pending", "paid", "processing", "shipped", "delivered", "cancelled")


@dataclass(frozen=True)
class TimelineEntry:
    status: str
    text: str
    at: datetime


def customer_timeline(order: Order, *, public: bool = False) -> list[TimelineEntry]:
    """The order's history in customer words. public=True (anyone holding the tracking number) keeps only the
    shipping milestones; otherwise the buyer also sees payments, refunds and returns."""
    entries = []
    previous_status = None
    for event in order.events:
        text = _customer_text(event, order, changed=event.status != previous_status)
        previous_status = event.status
        if text is None or (public and (event.status not in SHIPPING_STATUSES or text != _status_text(event, order))):
            continue
        entries.append(TimelineEntry(event.status, text, event.created_at))
    return entries


def _customer_text(event: OrderEvent, order: Order, *, changed: bool) -> str | None:
    note = event.note or ""
    found = _RETURN.match(note)
    if found:
        return {"requested": "Return requested", "approved": "Return approved and refunded",
                "rejected": "Return declined"}[found.group(1).lower()]  # fmt: skip
    if _PAYMENT_FAILED.match(note):
        return "Payment did not go through"
    if changed:
        text = _status_text(event, order)
        if event.status == "cancelled" and _REFUNDED.search(note):
            text += " and refunded"
        return text
    if _REFUNDED.search(note):
        return "Payment refunded"
    return None  # an internal note on an unchanged status


def _status_text(event: OrderEvent, order: Order) -> str:
    text = STATUS_TEXT.get(event.status, event.status.replace("_", " ").capitalize())
    if event.status == "shipped" and order.carrier:
        text += f" with {order.carrier}"
    if event.status == "paid" and order.is_test_payment:
        text += " (test payment: no money moved)"
    return text


def timeline_dicts(order: Order, *, public: bool = False) -> list[dict]:
    """The API shape; `note` keeps its name for existing clients but holds the customer-facing text."""
    return [
        {"status": e.status, "note": e.text, "at": e.at.isoformat()} for e in customer_timeline(order, public=public)
    ]
