"""Extraction on demand for the registry tools: one of the owner's receipts, or text they supply, read again
by the offline engine without saving anything."""

from __future__ import annotations

from ..actors import Actor
from ..errors import Invalid
from . import extraction, library
from .document import ReceiptDocument, ReceiptExtraction


def extract_for_owner(actor: Actor, receipt_id: int, receipt_text: str | None = None) -> ReceiptExtraction:
    """Extract from the caller's receipt (its read text, or `receipt_text`); 404 for another user's receipt."""
    receipt = library.get_receipt(actor, receipt_id)
    text = receipt_text if receipt_text is not None else receipt.raw_text
    if not text or not text.strip():
        raise Invalid("This receipt has no text yet: wait until it is read, or pass receipt_text",
                      details=[{"field": "receipt_text", "message": "required while the receipt is unread"}])  # fmt: skip
    document = ReceiptDocument.from_lines(text.splitlines(), source=receipt.method or "text")
    return extraction.extract(document, engine="offline")
