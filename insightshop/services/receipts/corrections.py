"""The owner's review of a read receipt: correct a value by hand or confirm it; verified values survive re-reading."""

from __future__ import annotations

from ...extensions import db
from ...models.citations import ExtractedField
from ...models.receipts import Receipt
from ..actors import Actor
from ..citations import provenance
from ..citations.builder import field_by_name
from ..errors import Conflict, Invalid
from . import library
from .processing import extraction_values, review_status
from .validation import validate_extraction
from .values import ITEM_FIELD, kind_of, parse_value, set_value


def correct_value(actor: Actor, receipt_id: int, field_name: str, value: str | None, note: str = "") -> Receipt:
    """Set a value by hand (recorded as a manual revision; the old value stays in the history)."""
    receipt = _reviewable(actor, receipt_id)
    kind = kind_of(receipt, field_name)
    parsed = parse_value(field_name, kind, value)
    field = field_by_name(receipt, field_name)
    if field is None:
        field = ExtractedField(field_name=field_name, value_type=kind, extraction_method="manual")
        receipt.fields.append(field)
    provenance.correct_field(receipt, field, provenance.as_text(parsed), actor.user.id, note)
    set_value(receipt, field_name, parsed)
    _revalidate(receipt, field_name)
    db.session.commit()
    return receipt


def verify_value(actor: Actor, receipt_id: int, field_name: str) -> Receipt:
    """Confirm a value as read: who and when are recorded, and re-reading never changes it again."""
    receipt = _reviewable(actor, receipt_id)
    kind_of(receipt, field_name)
    field = field_by_name(receipt, field_name)
    if field is None or field.value is None:
        raise Invalid("There is no value to verify; enter it instead", details=[{"field": field_name}])
    provenance.verify_field(field, actor.user.id)
    _revalidate(receipt, field_name)
    db.session.commit()
    return receipt


def _reviewable(actor: Actor, receipt_id: int) -> Receipt:
    receipt = library.get_receipt(actor, receipt_id)
    if not receipt.is_done and receipt.status != "failed":
        raise Conflict("The receipt is still being read; correct it once it is done")
    return receipt


def _revalidate(receipt: Receipt, field_name: str) -> None:
    if not ITEM_FIELD.match(field_name):
        receipt.field_confidence = {**(receipt.field_confidence or {}), field_name: 1.0}
    # The receipt is as sure as its least sure value now that a person has looked at it.
    scores = [score for name, score in receipt.field_confidence.items() if getattr(receipt, name) is not None]
    receipt.confidence = min(scores + [item.confidence or 0 for item in receipt.items], default=receipt.confidence)
    checked = validate_extraction(extraction_values(receipt))
    receipt.errors, receipt.warnings = checked.errors, checked.warnings
    receipt.status = review_status(receipt, checked.valid)
