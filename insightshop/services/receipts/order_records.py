"""The shop's own receipts: every paid order of a signed-in buyer adds its receipt to their receipts."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from ...extensions import db
from ...models.orders import Order
from ...models.receipts import Receipt, ReceiptItem
from .. import order_receipts
from . import item_categories

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
    receipt = Receipt(
        user_id=order.user_id, order_id=order.id, original_filename=f"insightshop-order-{order.id}.txt",
        stored_name=None, content_type="text/plain", size_bytes=len(text.encode()),
        sha256=hashlib.sha256(text.encode()).hexdigest(), status="completed", method=METHOD, raw_text=text,
        merchant_name=order_receipts.MERCHANT, merchant_address=None, purchase_date=order.paid_at.date(),
        currency=order.currency, subtotal=order.subtotal, tax_amount=order.tax,
        total_amount=order.total, confidence=1.0, field_confidence=dict.fromkeys(FIELDS_CERTAIN, 1.0),
        processing_time_ms=0, agent_version=METHOD, processed_at=order.paid_at,
    )  # fmt: skip
    receipt.items = [
        ReceiptItem(line_number=number, item_name=f"{line.name} ({line.color}, {line.size})"[:255],
                    quantity=line.quantity, unit_price=line.unit_price, total_price=line.line_total, confidence=1.0)
        for number, line in enumerate(order.items, 1)
    ]  # fmt: skip
    item_categories.assign_categories(order.user_id, receipt.items)
    db.session.add(receipt)
    return receipt
