"""A receipt value with its citation, as tools and the assistant quote it: the builder's short and long strings,
how far to trust it, and the receipt page that highlights its source (/receipts/<id>?field=<name>)."""

from __future__ import annotations

from flask import url_for

from ..models.receipts import Receipt
from ..services.citations.builder import citation_strings, field_by_name, source_blocks

TOTAL = "total_amount"


def cited_value(receipt: Receipt, field_name: str = TOTAL) -> dict | None:
    """{short, long, verified, confidence, method, url} for one field of a receipt, or None if it was not extracted."""
    field = field_by_name(receipt, field_name)
    if field is None or field.value is None:
        return None
    blocks = source_blocks(receipt, field)
    strings = citation_strings(receipt, field, blocks[0] if blocks else None)
    return {
        "short": strings["short"],
        "long": strings["long"],
        "verified": bool(field.verified),
        "confidence": field.confidence,
        "method": field.extraction_method,
        "url": url_for("receipts.show_receipt", receipt_id=receipt.id, field=field.field_name),
    }
