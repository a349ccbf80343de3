"""The receipt as the model sees it: the file itself (an image block for JPEG/PNG/WebP, a document block for a
PDF) before the text read from it as numbered lines, so the model can read what the text misread and still say
which line each value is printed on. Images over the API's limits are scaled down with Pillow when it is
installed, in the reader child process (reading.isolation), never in this one; a file that cannot be sent
leaves the text alone."""

from __future__ import annotations

import base64
import io
import logging

from ..document import ReceiptDocument
from ..prompts import receipt_message

log = logging.getLogger(__name__)

IMAGE_TYPES = {"image/jpeg", "image/png", "image/webp", "image/gif"}
PDF_TYPE = "application/pdf"
MAX_IMAGE_BYTES = 5 * 1024 * 1024 * 3 // 4  # the API allows 5 MB of base64 text per image
MAX_IMAGE_SIDE = 8000  # pixels, either side
MIN_IMAGE_SIDE = 400  # smaller than this a receipt is unreadable: better not sent at all
MAX_PDF_BYTES = 24 * 1024 * 1024  # base64 adds a third; a request may carry 32 MB
MAX_PDF_PAGES = 100
MAX_IMAGE_PIXELS = 50_000_000  # as reading.images: larger images are never decoded (nor read)
EPHEMERAL = {"type": "ephemeral"}


def receipt_content(document: ReceiptDocument, source: bytes | None, content_type: str | None) -> list[dict]:
    """The first user message: the file's block (when it can be sent), then the numbered text. The text block
    carries a cache breakpoint: every later round of the tool loop reads the receipt from the prompt cache."""
    text = {"type": "text", "text": receipt_message([line.text for line in document.lines]), "cache_control": EPHEMERAL}
    block = file_block(source, content_type, document.pages)
    return [block, text] if block else [text]


def file_block(source: bytes | None, content_type: str | None, pages: int = 1) -> dict | None:
    """An image or document block for the file; None for text files and files the API would refuse."""
    if not source or not content_type:
        return None
    if content_type == PDF_TYPE:
        if len(source) > MAX_PDF_BYTES or pages > MAX_PDF_PAGES:
            log.info("receipt PDF not sent to the model: %d bytes, %d pages", len(source), pages)
            return None
        return {"type": "document", "source": _base64(PDF_TYPE, source)}
    if content_type in IMAGE_TYPES:
        fitted = fit_image(source, content_type)
        return {"type": "image", "source": _base64(*fitted)} if fitted else None
    return None


def fit_image(data: bytes, content_type: str) -> tuple[str, bytes] | None:
    """(media type, bytes) within the API's limits: as is when it fits, else a scaled-down JPEG."""
    size = _image_size(data)
    if len(data) <= MAX_IMAGE_BYTES and (size is None or max(size) <= MAX_IMAGE_SIDE):
        return content_type, data
    if size is None or size[0] * size[1] > MAX_IMAGE_PIXELS:
        log.warning("receipt image over the API's limits not sent to the model (%d bytes, size %s)", len(data), size)
        return None
    scaled = _downscale_in_reader(data)
    if scaled is None:
        log.warning("receipt image over the API's limits not sent to the model (%d bytes, size %s)", len(data), size)
        return None
    return "image/jpeg", scaled


def _downscale_in_reader(data: bytes) -> bytes | None:
    """_downscale run in the reader child (decoding an image takes memory: never in this process), under the
    reading caps and in one of the machine's reading slots."""
    from flask import has_app_context

    from ..reading.errors import UnreadableDocument
    from ..reading.isolation import downscale_isolated

    settings = {}
    if has_app_context():
        from ..processing import reader_settings

        settings = reader_settings()
    try:
        return downscale_isolated(data, **settings)
    except UnreadableDocument as error:  # out of time, memory or slots: the text still goes
        log.warning("receipt image not downscaled for the model: %s", error.message)
        return None


def _image_size(data: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image
    except ImportError:
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:  # not an image Pillow knows: the API will say so
        return None


def _downscale(data: bytes) -> bytes | None:
    """Smaller JPEGs (upright, RGB) until one fits MAX_IMAGE_BYTES and MAX_IMAGE_SIDE; None without Pillow."""
    try:
        from PIL import Image, ImageOps
    except ImportError:
        return None
    try:
        with Image.open(io.BytesIO(data)) as opened:
            image = ImageOps.exif_transpose(opened).convert("RGB")
    except Exception:
        return None
    side = min(max(image.size), MAX_IMAGE_SIDE)
    while side >= MIN_IMAGE_SIDE:
        scaled = image.copy()
        scaled.thumbnail((side, side), Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        scaled.save(buffer, "JPEG", quality=85, optimize=True)
        if buffer.tell() <= MAX_IMAGE_BYTES:
            return buffer.getvalue()
        side = int(side * 0.75)
    return None


def _base64(media_type: str, data: bytes) -> dict:
    return {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode("ascii")}
