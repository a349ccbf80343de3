"""Recording where each value came from: at every extraction, at a correction by hand, at a verification.

A verified value is never overwritten by a later extraction: the extraction is kept in the history instead."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ...extensions import db
from ...models.base import utcnow
from ...models.citations import ExtractedField, FieldRevision
from ...models.receipts import Receipt
from ..receipts.document import Evidence, ExtractedValue, ReceiptDocument, ReceiptExtraction
from .blocks import block_id, blocks_for

RECEIPT_FIELDS = {
    "merchant_name": "string", "merchant_address": "string", "purchase_date": "date", "currency": "currency",
    "subtotal": "money", "tax_amount": "money", "total_amount": "money",
}  # fmt: skip
ITEM_ATTRIBUTES = {"item_name": "string", "quantity": "quantity", "unit_price": "money", "total_price": "money"}
METHOD_OF_ENGINE = {"offline": "ocr_rules", "order_record": "order_record"}


def extraction_method(engine: str) -> str:
    """The provenance method of an engine: the offline rules, the shop's own order, or Claude (any model id)."""
    if engine.startswith("offline"):
        return "ocr_rules"
    return METHOD_OF_ENGINE.get(engine, "claude")


def as_text(value) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, Decimal):
        return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else f"{value.normalize():f}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def record_extraction(receipt: Receipt, document: ReceiptDocument, result: ReceiptExtraction) -> None:
    """Replace the receipt's blocks with the document's and record every extracted value with its source."""
    method = extraction_method(result.engine)
    # The old blocks go first: a flush would insert the new "p1-l1" before deleting the old one (unique per receipt).
    receipt.blocks.clear()
    db.session.flush()
    receipt.blocks = blocks_for(document)
    ids = {line.index: block_id(line) for line in document.lines}
    found: dict[str, tuple[ExtractedValue, str]] = {
        name: (getattr(result, name), kind) for name, kind in RECEIPT_FIELDS.items()
    }
    for item in result.items:
        for attribute, kind in ITEM_ATTRIBUTES.items():
            evidence = tuple(item.evidence.get(attribute, ()))
            value = ExtractedValue(getattr(item, attribute), item.confidence, evidence)
            found[f"items.{item.line_number}.{attribute}"] = (value, kind)
    _record(receipt, {name: (_sourced(value, ids), kind) for name, (value, kind) in found.items()}, method)


def _sourced(value: ExtractedValue, ids: dict[int, str]) -> dict:
    evidence = [e for e in value.evidence if e.line_index in ids]
    first: Evidence | None = evidence[0] if evidence else None
    return {"value": as_text(value.value), "confidence": value.confidence,
            "blocks": [ids[e.line_index] for e in evidence], "span": (first.start, first.end) if first else None}  # fmt: skip


def _record(receipt: Receipt, values: dict[str, tuple[dict, str]], method: str) -> None:
    existing = {field.field_name: field for field in receipt.fields}
    for name, (found, kind) in values.items():
        field = existing.pop(name, None)
        if field is None:
            field = ExtractedField(field_name=name, value_type=kind, extraction_method=method)
            receipt.fields.append(field)
        _apply(field, found, method)
    for field in existing.values():  # values this extraction no longer finds (an item that is gone)
        if not field.verified:
            receipt.fields.remove(field)


def _apply(field: ExtractedField, found: dict, method: str) -> None:
    if field.verified and found["value"] != field.value:
        field.revisions.append(FieldRevision(method=method, value=found["value"], confidence=found["confidence"],
                                             note="Not applied: the value was verified"))  # fmt: skip
        return
    field.value, field.confidence, field.extraction_method = found["value"], found["confidence"], method
    field.source_block_ids = found["blocks"]
    field.span_start, field.span_end = found["span"] or (None, None)
    field.revisions.append(FieldRevision(method=method, value=found["value"], confidence=found["confidence"]))


def verified_values(receipt: Receipt) -> dict[str, str]:
    """Field name → value for every verified field (what an extraction must keep)."""
    return {field.field_name: field.value for field in receipt.fields if field.verified}


def correct_field(receipt: Receipt, field: ExtractedField, value: str | None, actor_id: int, note: str = "") -> None:
    """A value typed by hand: it has no source text, and the old value stays in the history."""
    field.value, field.confidence, field.extraction_method = value, 1.0, "manual"
    field.source_block_ids, field.span_start, field.span_end = [], None, None
    field.revisions.append(FieldRevision(method="manual", value=value, confidence=1.0, actor_id=actor_id,
                                         note=note[:500]))  # fmt: skip


def verify_field(field: ExtractedField, actor_id: int) -> None:
    field.verified, field.verified_at, field.verified_by_id = True, utcnow(), actor_id
    field.revisions.append(FieldRevision(method="verification", value=field.value, confidence=field.confidence,
                                         actor_id=actor_id, note="Checked against the receipt"))  # fmt: skip
