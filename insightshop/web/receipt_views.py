"""Display-ready values for the receipt pages (formatting and flags decided here, not in templates)."""

from __future__ import annotations

from flask import url_for

from ..models.receipts import LOW_CONFIDENCE, Receipt
from ..schemas.receipts import low_confidence_fields
from ..services.citations.provenance import ITEM_ATTRIBUTES, RECEIPT_FIELDS
from .filters import money
from .receipt_sources import Review, image_boxes, make_review, text_view

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
ITEM_LABELS = (("item_name", "Item"), ("quantity", "Qty"), ("unit_price", "Unit price"), ("total_price", "Total"))
METHOD_TEXT = {"text": "text file", "pdf_text": "PDF text", "ocr": "photo (OCR)", "order_record": "InsightShop order"}


def _display(receipt: Receipt, name: str) -> str:
    value = getattr(receipt, name)
    if value is None:
        return "—"
    if name in MONEY_FIELDS:
        return money(value, receipt.currency or "USD")
    if name == "purchase_date":
        return value.strftime("%-d %B %Y")
    return str(value)


def _item_display(receipt: Receipt, item, attribute: str) -> str:
    value = getattr(item, attribute)
    if value is None:
        return ""
    if attribute in ("unit_price", "total_price"):
        return money(value, receipt.currency or "USD")
    return f"{value.normalize():f}" if attribute == "quantity" else str(value)


def _field_rows(receipt: Receipt, context: dict) -> list[Review]:
    low = set(low_confidence_fields(receipt))
    scores = receipt.field_confidence or {}
    return [make_review(receipt, name, label, _display(receipt, name),
                        context | {"kind": RECEIPT_FIELDS[name], "low": name in low, "confidence": scores.get(name)})
            for name, label in FIELD_LABELS]  # fmt: skip


def _item_rows(receipt: Receipt, context: dict) -> list[dict]:
    rows = []
    for item in receipt.items:
        low = (item.confidence or 0) < LOW_CONFIDENCE
        cells = [make_review(receipt, f"items.{item.line_number}.{attribute}", label,
                             _item_display(receipt, item, attribute),
                             context | {"kind": ITEM_ATTRIBUTES[attribute], "low": low,
                                        "confidence": item.confidence})
                 for attribute, label in ITEM_LABELS]  # fmt: skip
        rows.append({"line_number": item.line_number, "cells": cells, "low_confidence": low,
                     "category": item.category.name if item.category else "Uncategorised"})  # fmt: skip
    return rows


def receipt_view(receipt: Receipt, viewer_id: int | None = None, cited: str | None = None,
                 errors: dict | None = None, typed: dict | None = None) -> dict:  # fmt: skip
    """Everything the receipt page prints; `cited` is the field the page points at (?field=), `errors` and `typed`
    the messages and the text of a refused correction."""
    context = {"viewer_id": viewer_id, "cited": cited, "errors": errors or {}, "typed": typed or {},
               "fields": {stored.field_name: stored for stored in receipt.fields}}  # fmt: skip
    fields = _field_rows(receipt, context)
    items = _item_rows(receipt, context)
    reviews = fields + [cell for row in items for cell in row["cells"]]
    selected = next((review for review in reviews if review.cited), None)
    is_image = receipt.content_type.startswith("image/") and bool(receipt.stored_name)
    return {
        "receipt": receipt,
        "title": receipt.merchant_name or receipt.original_filename,
        "status_text": STATUS_TEXT[receipt.status],
        "method_text": METHOD_TEXT.get(receipt.method or "", ""),
        "fields": fields,
        "item_rows": items,
        "selected_item": selected if selected and selected.name.startswith("items.") else None,
        "lines": text_view(receipt, selected),
        "pages": len({block.page for block in receipt.blocks}),
        "overlay": image_boxes(receipt, selected) if is_image else None,
        "pending": receipt.is_pending,
        "image_url": url_for("receipts.receipt_file", receipt_id=receipt.id) if is_image else None,
        "file_url": url_for("receipts.receipt_file", receipt_id=receipt.id) if receipt.stored_name else None,
        "order_url": url_for("orders.show_order", order_id=receipt.order_id) if receipt.order_id else None,
        "confidence": f"{receipt.confidence:.0%}" if receipt.confidence is not None else "",
        "can_reprocess": bool(receipt.stored_name) and not receipt.is_pending,
    }
