"""Order receipts: one plain-text layout (conventional, so the receipt extractor can read it), and the facts the
designed PDF receipt (web/receipt_pdf.py) prints beyond the order's own snapshot: how it was paid (card brand and
last four digits, never more), how it ships and how to reach the shop."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..models.orders import Order, PaymentLog
from . import shop_policies
from .errors import Conflict, ErrorCode

WIDTH = 48
MERCHANT = "InsightShop"
TAGLINE = "Everyday clothing for the whole family"
WEBSITE = "shop.insightshop.example"  # when PUBLIC_BASE_URL is not configured
CARD_BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}
_CARD_DIGITS = re.compile(r"\d[\d -]{3,}\d")


def _row(left: str, right: str) -> str:
    room = WIDTH - len(right) - 1
    return f"{left[:room]:<{room}} {right}"


def _require_paid(order: Order) -> None:
    if not order.is_paid:
        raise Conflict("A receipt exists once the order is paid", code=ErrorCode.CONFLICT)


def receipt_lines(order: Order) -> list[str]:
    """The receipt as fixed-width text lines: merchant, date, items with prices, totals, payment."""
    _require_paid(order)
    lines = [
        MERCHANT.upper().center(WIDTH),
        TAGLINE.center(WIDTH),
        WEBSITE.center(WIDTH),
        "",
        f"Receipt for order #{order.id}",
        f"Date: {order.paid_at.strftime('%Y-%m-%d %H:%M')} UTC",
        f"Customer: {order.shipping_name}",
        "-" * WIDTH,
    ]
    for item in order.items:
        lines.append(_row(f"{item.quantity} x {item.name}", f"{item.line_total:.2f}"))
        detail = f"   {item.color.capitalize()} / {item.size} @ {item.unit_price:.2f}"
        if item.unit_price < item.list_price:
            detail += f" (was {item.list_price:.2f})"
        lines.append(detail)
    lines += [
        "-" * WIDTH,
        _row("SUBTOTAL", f"{order.items_subtotal:.2f}"),
    ]
    lines += [
        _row(f"SHIPPING ({order.shipping_method})", f"{order.shipping:.2f}"),
        _row("TAX", f"{order.tax:.2f}"),
        _row(f"TOTAL {order.currency}", f"{order.total:.2f}"),
        "-" * WIDTH,
        f"Paid with {order.payment_method or order.payment_provider}",
        "Thank you for shopping with InsightShop!",
    ]
    return lines


def receipt_text(order: Order) -> str:
    return "\n".join(receipt_lines(order)) + "\n"


@dataclass(frozen=True)
class ReceiptFacts:
    """What a receipt says beyond the order's snapshot."""

    order: Order
    payment: str  # "Visa ending in 4242": brand and last four digits only
    test_payment: bool
    delivery_method: str  # "Standard"
    delivery_time: str  # "3–5 business days"
    support_email: str
    return_days: int
    website: str


def receipt_facts(order: Order) -> ReceiptFacts:
    """The paid order's receipt facts: payment card, delivery, and the shop's contact and returns policy."""
    _require_paid(order)
    method, days = shop_policies.DELIVERY_OPTIONS.get(order.shipping_method, (order.shipping_method.capitalize(), ""))
    return ReceiptFacts(order=order, payment=payment_card(order), test_payment=order.is_test_payment,
                        delivery_method=method, delivery_time=days, support_email=shop_policies.SUPPORT_EMAIL,
                        return_days=shop_policies.return_window_days(), website=_website())  # fmt: skip


def payment_card(order: Order) -> str:
    """How the order was paid, as "Visa ending in 4242": the card's brand and last four digits, never more."""
    log = db.session.scalar(
        select(PaymentLog)
        .where(
            PaymentLog.order_id == order.id,
            PaymentLog.kind == "payment",
            PaymentLog.status == "succeeded",
            PaymentLog.card_last4.is_not(None),
        )
        .order_by(PaymentLog.id.desc())
        .limit(1)
    )
    if log is not None:
        brand = CARD_BRANDS.get((log.card_brand or "").lower(), (log.card_brand or "Card").capitalize())
        return f"{brand} ending in {log.card_last4}"
    # No card on record (an older order): the order's own label, with any longer run of digits cut to its last four.
    label = (order.payment_method or order.payment_provider or "Card").replace(" (test)", "")
    return _CARD_DIGITS.sub(lambda found: "ending in " + re.sub(r"\D", "", found.group())[-4:], label)


def _website() -> str:
    base = current_app.config.get("PUBLIC_BASE_URL")
    return urlsplit(base).netloc if base else WEBSITE
