"""Reading one receipt: claim it, read the file, extract, validate, categorise, save — or fail with reasons."""

from __future__ import annotations

import logging
import time
from datetime import date, timedelta
from decimal import Decimal

from flask import current_app
from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import OperationalError

from ...extensions import db
from ...models.base import utcnow
from ...models.receipts import LOW_CONFIDENCE, Receipt, ReceiptItem
from ..citations import provenance
from ..errors import DomainError
from . import extraction, item_categories, storage, values
from .document import ExtractedValue, ReceiptExtraction
from .reading.isolation import read_isolated, settings_from
from .validation import validate_extraction

log = logging.getLogger(__name__)
DB_RETRIES = 4  # database errors while saving: retried with exponential backoff
STALE_AFTER = timedelta(minutes=10)  # a receipt "processing" this long lost its worker
FAIR_WINDOW = timedelta(minutes=10)  # how far back the readings a user had count when picking the next receipt
FIELDS = ("merchant_name", "merchant_address", "purchase_date", "currency", "subtotal", "tax_amount", "total_amount")


def process_receipt(receipt_id: int, *, engine: str | None = None) -> Receipt | None:
    """Read and extract one receipt; None when another worker has it or it is already done."""
    if not _claim(receipt_id):
        return None
    receipt = db.session.get(Receipt, receipt_id)
    started = time.perf_counter()
    try:
        data = storage.read_file(receipt.stored_name)
        document = read_file_isolated(data, receipt.content_type, receipt.original_filename)
        result = extraction.extract(document, engine=engine or extraction.default_engine(), source=data,
                                    content_type=receipt.content_type)  # fmt: skip
    except DomainError as error:
        return _fail(receipt_id, [error.message], started)
    except Exception:
        log.exception("reading receipt %s failed", receipt_id)
        return _fail(receipt_id, ["The receipt could not be read; try another photo or file"], started)
    return _with_db_retries(lambda: _save(receipt_id, document, result, started))


def read_file_isolated(data: bytes, content_type: str, filename: str | None):
    """The file read in the reader process, under the configured time and memory caps (never in this one), in
    one of the machine's reading slots (lock files in the instance folder)."""
    return read_isolated(data, content_type, filename, **reader_settings())


def reader_settings() -> dict:
    settings = settings_from(current_app.config)
    return settings | {"slots_dir": settings["slots_dir"] or current_app.instance_path}


def process_next(hint_id: int | None = None) -> Receipt | None:
    """Read the waiting receipt that is fairest to take next (next_fair_receipt_id); a queued job is a turn of
    the worker, not a promise to read its own receipt first. With nothing waiting, the hint is tried (a receipt
    a sweep re-queued), which does nothing when it is read already."""
    for _ in range(5):  # another worker may claim the pick first
        receipt_id = next_fair_receipt_id()
        if receipt_id is None:
            break
        receipt = process_receipt(receipt_id)
        if receipt is not None:
            return receipt
    return process_receipt(hint_id) if hint_id is not None else None


def next_fair_receipt_id() -> int | None:
    """Of the users with receipts waiting, the one whose readings were fewest over FAIR_WINDOW (in flight
    included) goes first, with their oldest receipt; ties go to the oldest receipt. One account's backlog then
    delays another's first receipt by one reading at most, whatever the order of the queue."""
    stale = utcnow() - STALE_AFTER
    waiting = or_(Receipt.status == "uploaded", (Receipt.status == "processing") & (Receipt.updated_at < stale))
    firsts = db.session.execute(
        select(Receipt.user_id, func.min(Receipt.id)).where(waiting).group_by(Receipt.user_id)
    ).all()  # fmt: skip
    if len(firsts) <= 1:
        return firsts[0][1] if firsts else None
    recent = or_(Receipt.processed_at >= utcnow() - FAIR_WINDOW,
                 (Receipt.status == "processing") & (Receipt.updated_at >= stale))  # fmt: skip
    served = dict(db.session.execute(
        select(Receipt.user_id, func.count()).where(Receipt.user_id.in_([user for user, _ in firsts]), recent)
        .group_by(Receipt.user_id)
    ).all())  # fmt: skip
    return min(firsts, key=lambda row: (served.get(row[0], 0), row[1]))[1]


def _claim(receipt_id: int) -> bool:
    """uploaded → processing in one statement, so only one worker gets the receipt."""
    stale = utcnow() - STALE_AFTER
    claimable = or_(Receipt.status == "uploaded",
                    (Receipt.status == "processing") & (Receipt.updated_at < stale))  # fmt: skip
    claimed = _with_db_retries(lambda: _claim_once(receipt_id, claimable))
    return claimed == 1


def _claim_once(receipt_id: int, claimable) -> int:
    result = db.session.execute(
        update(Receipt).where(Receipt.id == receipt_id, claimable)
        .values(status="processing", attempts=Receipt.attempts + 1, updated_at=utcnow())
    )  # fmt: skip
    db.session.commit()
    return result.rowcount


def _save(receipt_id: int, document, result: ReceiptExtraction, started: float) -> Receipt:
    receipt = db.session.get(Receipt, receipt_id, populate_existing=True)
    receipt.method = document.source
    receipt.raw_text = document.text
    apply_extraction(receipt, result)
    provenance.record_extraction(receipt, document, result)
    values.keep_verified(receipt)  # what the owner verified stays as they verified it
    checked = validate_extraction(extraction_values(receipt))
    receipt.errors, receipt.warnings = checked.errors, checked.warnings
    receipt.status = review_status(receipt, checked.valid)
    receipt.processing_time_ms = int((time.perf_counter() - started) * 1000)
    receipt.processed_at = utcnow()
    db.session.commit()
    return receipt


def apply_extraction(receipt: Receipt, result: ReceiptExtraction) -> None:
    """Copy an engine's values onto the receipt and replace its items (categorised for the owner)."""
    confidences = {}
    for name in FIELDS:
        value: ExtractedValue = getattr(result, name)
        setattr(receipt, name, _column_value(name, value.value))
        confidences[name] = round(value.confidence, 3)
    receipt.field_confidence = confidences
    receipt.confidence = round(result.confidence, 3)
    receipt.agent_version = result.engine
    receipt.items = [
        ReceiptItem(line_number=item.line_number, item_name=item.item_name[:255], quantity=item.quantity,
                    unit_price=item.unit_price, total_price=item.total_price, confidence=round(item.confidence, 3))
        for item in result.items
    ]  # fmt: skip
    item_categories.assign_categories(receipt.user_id, receipt.items)


def _column_value(name: str, value):
    if value is None or value == "":
        return None
    if name == "purchase_date":
        return value if isinstance(value, date) else date.fromisoformat(str(value))
    if name in ("subtotal", "tax_amount", "total_amount"):
        return Decimal(str(value)).quantize(Decimal("0.01"))
    if name == "currency":
        return str(value).upper()[:3]
    return str(value)[: 500 if name == "merchant_address" else 255]


def extraction_values(receipt: Receipt) -> dict:
    """The receipt's values in the shape validate_extraction reads."""
    values = {name: getattr(receipt, name) for name in FIELDS}
    values["items"] = [{"total_price": item.total_price} for item in receipt.items]
    return values


def review_status(receipt: Receipt, valid: bool) -> str:
    """completed, or needs_review when a rule failed or any value is below the confidence threshold."""
    low = [name for name, score in (receipt.field_confidence or {}).items()
           if score < LOW_CONFIDENCE and getattr(receipt, name) is not None]  # fmt: skip
    low_item = any((item.confidence or 0) < LOW_CONFIDENCE for item in receipt.items)
    uncertain = (receipt.confidence or 0) < LOW_CONFIDENCE
    return "completed" if valid and not (low or low_item or uncertain) else "needs_review"


def _fail(receipt_id: int, reasons: list[str], started: float) -> Receipt:
    def mark() -> Receipt:
        receipt = db.session.get(Receipt, receipt_id, populate_existing=True)
        receipt.status = "failed"
        receipt.errors = reasons
        receipt.processing_time_ms = int((time.perf_counter() - started) * 1000)
        receipt.processed_at = utcnow()
        db.session.commit()
        return receipt

    return _with_db_retries(mark)


def _with_db_retries(work):
    for attempt in range(DB_RETRIES):
        try:
            return work()
        except OperationalError:
            db.session.rollback()
            if attempt == DB_RETRIES - 1:
                raise
            log.warning("database error while processing a receipt; retrying", exc_info=True)
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


def stale_receipt_ids(limit: int = 50) -> list[int]:
    """Receipts waiting for a worker: never started, or started by a worker that went away."""
    stale = utcnow() - STALE_AFTER
    query = select(Receipt.id).where(
        or_(Receipt.status == "uploaded", (Receipt.status == "processing") & (Receipt.updated_at < stale))
    )
    return list(db.session.scalars(query.order_by(Receipt.id).limit(limit)))
