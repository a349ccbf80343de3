"""Moments in an order's life that others react to (order emails), announced by the services that cause them.

Services send the signal inside their transaction; receivers must not act before it commits (see web/order_mail)."""

from __future__ import annotations

from blinker import Namespace

from ..models.orders import Order

_signals = Namespace()
order_changed = _signals.signal("order-changed")

# link: a guest who looked the order up from another browser asked for a signed link to the whole order.
KINDS = ("placed", "paid", "shipped", "delivered", "cancelled", "return_requested", "return_approved",
         "return_rejected", "link")  # fmt: skip


def announce(order: Order, kind: str, **facts) -> None:
    """Tell receivers that `order` reached `kind` (facts: e.g. refund amount, return id)."""
    assert kind in KINDS, kind
    order_changed.send(order, kind=kind, facts=facts)
