"""Reading a receipt file into a ReceiptDocument: text files as they are, PDFs by text layer or OCR, images by OCR.

What the file is comes from its bytes; the declared content type and the file name are only used to word
the error when they promise something the bytes are not.
"""

from __future__ import annotations

from ..document import ReceiptDocument
from .errors import DocumentTooLarge, UnreadableDocument, UnsupportedDocument
from .images import decode_image
from .layout import PageText, build_document
from .ocr import recognise
from .pdf import read_pdf
from .sniff import READABLE_IMAGES, sniff_kind
from .text import read_text

__all__ = ["MAX_DOCUMENT_BYTES", "DocumentTooLarge", "UnreadableDocument", "UnsupportedDocument", "read_document"]

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024

_UNSUPPORTED_NAMES = {
    "heic": "an HEIC photo",
    "avif": "an AVIF image",
    "gif": "a GIF image",
    "bmp": "a BMP image",
    "tiff": "a TIFF image",
    "zip": "a ZIP archive",
    "gzip": "a compressed (gzip) file",
    "rar": "a RAR archive",
    "7z": "a 7-Zip archive",
    "ole": "an old Microsoft Office document",
    "video": "a video or other media file",
}


def read_document(data: bytes, content_type: str, filename: str | None = None) -> ReceiptDocument:
    """The receipt file's text lines with pages, boxes and OCR scores; UnreadableDocument or UnsupportedDocument
    (both Invalid, with stable codes) when it cannot be read."""
    if not data:
        raise UnreadableDocument("The file is empty.", reason="empty")
    if len(data) > MAX_DOCUMENT_BYTES:
        raise DocumentTooLarge(f"The file is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB.")
    kind = sniff_kind(data)
    if kind == "pdf":
        return read_pdf(data)
    if kind in READABLE_IMAGES:
        return _read_image(data, READABLE_IMAGES[kind])
    if kind == "text":
        return read_text(data)
    raise UnsupportedDocument(_unsupported_message(kind, content_type, filename), detected=kind)


def _read_image(data: bytes, pillow_format: str) -> ReceiptDocument:
    decoded = decode_image(data, pillow_format)
    boxes = recognise(decoded.image, scale=decoded.scale)
    return build_document([PageText(number=1, size=decoded.page_size, boxes=tuple(boxes))], source="ocr")


def _unsupported_message(kind: str, content_type: str, filename: str | None) -> str:
    name = f" “{filename}”" if filename else ""
    declared = f" (sent as {content_type})" if content_type else ""
    what = _UNSUPPORTED_NAMES.get(kind, "a kind of file receipts are not read from")
    return f"The file{name}{declared} is {what}. Please upload a photo or scan (JPEG, PNG, WebP), a PDF or a text file."
