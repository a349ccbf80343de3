"""Taking a receipt in: checks, duplicates, the stored file, and the processing job."""

from __future__ import annotations

import hashlib
import unicodedata

from flask import current_app
from sqlalchemy import select

from ...extensions import db
from ...models.receipts import Receipt
from .. import rate_limits
from ..actors import Actor
from ..errors import Conflict, ErrorCode, Invalid, TooLarge, UnsupportedType
from . import jobs, storage

UPLOADS_PER_USER = rate_limits.Rule(
    "receipt-upload", "RECEIPT_UPLOAD_LIMIT", "10 per minute", message="At most 10 receipt uploads a minute"
)
ACCEPTED = "JPEG, PNG or WebP photos, PDF files or plain text"


def max_upload_bytes() -> int:
    return int(current_app.config["RECEIPT_MAX_BYTES"])


def upload_receipt(actor: Actor, filename: str | None, data: bytes) -> Receipt:
    """Store an uploaded receipt for the signed-in user and queue it for reading; 409 for the same file twice."""
    user = actor.require_user()
    content_type, extension = _check_file(data)
    rate_limits.take((UPLOADS_PER_USER, f"user:{user.id}"))
    digest = hashlib.sha256(data).hexdigest()
    existing = db.session.scalar(select(Receipt.id).where(Receipt.user_id == user.id, Receipt.sha256 == digest))
    if existing is not None:
        raise Conflict("You uploaded this receipt already", code=ErrorCode.DUPLICATE_RECEIPT,
                       details=[{"receipt_id": existing}])  # fmt: skip
    stored_name = storage.save_file(data, extension)
    receipt = Receipt(user_id=user.id, original_filename=clean_filename(filename, extension), stored_name=stored_name,
                      content_type=content_type, size_bytes=len(data), sha256=digest, status="uploaded")  # fmt: skip
    try:
        db.session.add(receipt)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        storage.delete_file(stored_name)
        raise
    jobs.enqueue(receipt.id)
    return receipt


def _check_file(data: bytes) -> tuple[str, str]:
    if not data:
        raise Invalid("The file is empty", details=[{"field": "file", "message": "empty"}])
    if len(data) > max_upload_bytes():
        megabytes = max_upload_bytes() // (1024 * 1024)
        raise TooLarge(f"Receipts may be at most {megabytes} MB", details=[{"field": "file", "limit_mb": megabytes}])
    kind = storage.detect_type(data)
    if kind is None:
        message = f"That file is not a receipt the shop can read: send {ACCEPTED}"
        raise UnsupportedType(message, details=[{"field": "file", "message": message}])
    return kind


def clean_filename(filename: str | None, extension: str) -> str:
    """A display name: the base name only, control and path characters dropped, at most 120 characters."""
    base = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in unicodedata.normalize("NFC", base) if unicodedata.category(ch)[0] != "C").strip()
    return base[:120] or f"receipt{extension}"
