"""The shop's own receipts: every paid order of a signed-in buyer adds its receipt to their receipts, with each
value sourced at the characters of the receipt text that print it."""

from __future__ import annotations

import hashlib
from decimal import Decimal

from sqlalchemy import select

from ...extensions import db
from ...models.orders import Order
from ...models.receipts import Receipt, ReceiptItem
from .. import order_receipts
from ..citations import provenance
from . import item_categories
from .document import Evidence, ExtractedItem, ExtractedValue, ReceiptDocument, ReceiptExtraction

METHOD = "order_record"
FIELDS_CERTAIN = ("merchant_name", "merchant_address", "purchase_date", "currency", "subtotal", "tax_amount",
                  "total_amount")  # fmt: skip


def record_order_receipt(order: Order) -> Receipt | None:
    """Add the paid order's receipt (confidence 1: the values are the order's own) in the caller's transaction.

    Guests have no receipts page, so their orders add none; an order adds one receipt at most."""
    if order.user_id is None or not order.is_paid:
        return None
    if db.session.scalar(select(Receipt.id).where(Receipt.order_id == order.id)) is not None:
        return None
    text = order_receipts.receipt_text(order)
    document = ReceiptDocument.from_lines(text.rstrip("\n").split("\n"), source="order_record")
    result = order_extraction(order, document)
    receipt = Receipt(
        user_id=order.user_id, order_id=order.id, original_filename=f"insightshop-order-{order.id}.txt",
        stored_name=None, content_type="text/plain", size_bytes=len(text.encode()),
        sha256=hashlib.sha256(text.encode()).hexdigest(), status="completed", method=METHOD, raw_text=text,
        merchant_name=order_receipts.MERCHANT, merchant_address=None, purchase_date=order.paid_at.date(),
        currency=order.currency, subtotal=order.items_subtotal, tax_amount=order.tax, total_amount=order.total,
        confidence=1.0, field_confidence=dict.fromkeys(FIELDS_CERTAIN, 1.0), processing_time_ms=0,
        agent_version=METHOD, processed_at=order.paid_at,
    )  # fmt: skip
    receipt.items = [
        ReceiptItem(line_number=item.line_number, item_name=item.item_name[:255], quantity=item.quantity,
                    unit_price=item.unit_price, total_price=item.total_price, confidence=1.0)
        for item in result.items
    ]  # fmt: skip
    item_categories.assign_categories(order.user_id, receipt.items)
    provenance.record_extraction(receipt, document, result)
    db.session.add(receipt)
    return receipt


def order_extraction(order: Order, document: ReceiptDocument) -> ReceiptExtraction:
    """The order's values as an extraction whose evidence points at where receipt_text prints them."""
    lines = [line.text for line in document.lines]

    def value(value, printed: str, label: str = "") -> ExtractedValue:
        return ExtractedValue(value, 1.0, _found(lines, printed, label))

    items, start = [], 0
    for number, line in enumerate(order.items, 1):
        head = f"{line.quantity} x {line.name}"[:20]
        name_at = _found(lines, line.name, head, start)
        start = name_at[0].line_index + 1 if name_at else start
        items.append(ExtractedItem(
            line_number=number, item_name=f"{line.name} ({line.color}, {line.size})", total_price=line.line_total,
            quantity=Decimal(line.quantity), unit_price=line.unit_price, confidence=1.0,
            evidence={"item_name": name_at, "quantity": _found(lines, f"{line.quantity} x", head, start - 1),
                      "total_price": _found(lines, f"{line.line_total:.2f}", head, start - 1),
                      "unit_price": _found(lines, f"{line.unit_price:.2f}", "", start)},
        ))  # fmt: skip
    return ReceiptExtraction(
        merchant_name=value(order_receipts.MERCHANT, order_receipts.MERCHANT.upper()),
        merchant_address=ExtractedValue(None, 1.0),
        purchase_date=value(order.paid_at.date().isoformat(), order.paid_at.date().isoformat(), "Date:"),
        currency=value(order.currency, order.currency, "TOTAL"),
        subtotal=value(order.items_subtotal, f"{order.items_subtotal:.2f}", "SUBTOTAL"),  # the lines at the prices paid
        tax_amount=value(order.tax, f"{order.tax:.2f}", "TAX"),
        total_amount=value(order.total, f"{order.total:.2f}", "TOTAL"),
        items=tuple(items), confidence=1.0, engine=METHOD,
    )  # fmt: skip


def _found(lines: list[str], printed: str, label: str = "", start: int = 0) -> tuple[Evidence, ...]:
    """The first line from `start` beginning with `label` (after spaces) that prints `printed`, and where."""
    for index, text in enumerate(lines[start:], start):
        if label and not text.strip().startswith(label.strip()):
            continue
        at = text.rfind(printed) if printed[:1].isdigit() else text.upper().find(printed.upper())
        if at >= 0:
            return (Evidence(index, at, at + len(printed)),)
    return ()
