"""Display-ready values for the receipt pages (formatting and flags decided here, not in templates)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for

from ..models.receipts import LOW_CONFIDENCE, Receipt
from ..schemas.receipts import low_confidence_fields
from .filters import money

FIELD_LABELS = (
    ("merchant_name", "Merchant"),
    ("merchant_address", "Address"),
    ("purchase_date", "Date"),
    ("subtotal", "Subtotal"),
    ("tax_amount", "Tax"),
    ("total_amount", "Total"),
    ("currency", "Currency"),
)
MONEY_FIELDS = ("subtotal", "tax_amount", "total_amount")
STATUS_TEXT = {
    "uploaded": "Waiting to be read…",
    "processing": "Reading your receipt…",
    "completed": "Read",
    "needs_review": "Please check the highlighted values",
    "failed": "Could not be read",
}
METHOD_TEXT = {"text": "text file", "pdf_text": "PDF text", "ocr": "photo (OCR)", "order_record": "InsightShop order"}


@dataclass(frozen=True)
class FieldRow:
    name: str
    label: str
    value: str
    low_confidence: bool
    confidence: str


def _display(receipt: Receipt, name: str) -> str:
    value = getattr(receipt, name)
    if value is None:
        return "—"
    if name in MONEY_FIELDS:
        return money(value, receipt.currency or "USD")
    if name == "purchase_date":
        return value.strftime("%-d %B %Y")
    return str(value)


def receipt_view(receipt: Receipt) -> dict:
    low = set(low_confidence_fields(receipt))
    scores = receipt.field_confidence or {}
    fields = [FieldRow(name, label, _display(receipt, name), name in low,
                       f"{scores[name]:.0%}" if name in scores else "")
              for name, label in FIELD_LABELS]  # fmt: skip
    items = [
        {"line_number": item.line_number, "name": item.item_name,
         "quantity": f"{item.quantity.normalize():f}" if item.quantity is not None else "",
         "unit_price": money(item.unit_price, receipt.currency or "USD") if item.unit_price is not None else "",
         "total": money(item.total_price, receipt.currency or "USD"),
         "category": item.category.name if item.category else "Uncategorised",
         "low_confidence": (item.confidence or 0) < LOW_CONFIDENCE}
        for item in receipt.items
    ]  # fmt: skip
    is_image = receipt.content_type.startswith("image/") and bool(receipt.stored_name)
    return {
        "receipt": receipt,
        "title": receipt.merchant_name or receipt.original_filename,
        "status_text": STATUS_TEXT[receipt.status],
        "method_text": METHOD_TEXT.get(receipt.method or "", ""),
        "fields": fields,
        "item_rows": items,
        "pending": receipt.is_pending,
        "image_url": url_for("receipts.receipt_file", receipt_id=receipt.id) if is_image else None,
        "file_url": url_for("receipts.receipt_file", receipt_id=receipt.id) if receipt.stored_name else None,
        "order_url": url_for("orders.show_order", order_id=receipt.order_id) if receipt.order_id else None,
        "confidence": f"{receipt.confidence:.0%}" if receipt.confidence is not None else "",
        "can_reprocess": bool(receipt.stored_name) and not receipt.is_pending,
    }
