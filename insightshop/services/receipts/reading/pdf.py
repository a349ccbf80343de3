"""PDF receipts: each page by its text layer (pdfplumber words), or, when it has none, rendered and read by OCR.

All boxes of a PDF are in the pixels of its pages rendered at RENDER_DPI, whether they come from the text
layer or from OCR, so one document has one coordinate system and a page drawn at that resolution lines up.
"""

from __future__ import annotations

import io
import itertools
import logging
import re

from ..document import ReceiptDocument
from . import pdf_guard
from .errors import UnreadableDocument
from .images import MAX_WORKING_PIXELS
from .layout import Box, PageText, build_document
from .ocr import recognise

MAX_PAGES = 10
RENDER_DPI = 200
MAX_RENDER_PIXELS = MAX_WORKING_PIXELS  # a page larger than A4 is rendered below RENDER_DPI
_SCALE = RENDER_DPI / 72  # PDF units are points, 1/72 inch
_UNMAPPED_GLYPH = re.compile(r"\(cid:\d+\)")  # a font without a Unicode map: the text layer is no use there

logger = logging.getLogger(__name__)


def read_pdf(data: bytes) -> ReceiptDocument:
    """The PDF's lines, page by page: text layer where there is one, OCR of the rendered page where not.

    Encrypted PDFs that open without a password (owner-only encryption: permissions) are read; those that
    need a password are refused. Every stream is measured first (pdf_guard): decompression bombs are refused
    before anything inflates them.
    """
    import pdfplumber  # imported here: pdfminer is only needed for PDFs

    pdf_guard.scan(data)
    with pdf_guard.guarded_reading():
        try:
            with pdfplumber.open(io.BytesIO(data)) as pdf:
                _check_page_count(_count_pages(pdf))
                pages = [_page_words(page, number) for number, page in enumerate(pdf.pages, start=1)]
        except (UnreadableDocument, MemoryError):  # out of memory: the reader process reports it as such
            raise
        except Exception as error:  # pdfminer reports damaged files with many exception types
            raise _unreadable_pdf(error) from error
    with_text = sum(1 for page in pages if page.boxes)
    if with_text < len(pages):
        pages = _ocr_pages_without_text(data, pages)
    return build_document(pages, source="pdf_text" if with_text else "ocr")


def _count_pages(pdf) -> int:
    """The number of pages, counted no further than MAX_PAGES + 1 (a page tree can list millions)."""
    from pdfminer.pdfpage import PDFPage

    return sum(1 for _ in itertools.islice(PDFPage.create_pages(pdf.doc), MAX_PAGES + 1))


def _check_page_count(count: int) -> None:
    if count == 0:
        raise UnreadableDocument("This PDF has no pages.", reason="broken")
    if count > MAX_PAGES:
        raise UnreadableDocument(
            f"This PDF has more than {MAX_PAGES} pages; receipts of up to {MAX_PAGES} pages can be read.",
            reason="too_many_pages",
        )


def _page_words(page, number: int) -> PageText:
    size = (round(float(page.width) * _SCALE), round(float(page.height) * _SCALE))
    boxes = []
    for word in page.extract_words():
        text = _UNMAPPED_GLYPH.sub("", word["text"]).strip()
        if text:
            bbox = tuple(float(word[key]) * _SCALE for key in ("x0", "top", "x1", "bottom"))
            boxes.append(Box(text=text, bbox=bbox))
    return PageText(number=number, size=size, boxes=tuple(boxes))


def _ocr_pages_without_text(data: bytes, pages: list[PageText]) -> list[PageText]:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data)
    except Exception as error:
        raise _unreadable_pdf(error) from error
    try:
        return [page if page.boxes else _ocr_page(document, page) for page in pages]
    finally:
        document.close()


def _ocr_page(document, page: PageText) -> PageText:
    pdf_page = document[page.number - 1]
    width, height = pdf_page.get_size()
    scale = min(_SCALE, (MAX_RENDER_PIXELS / max(width * height, 1.0)) ** 0.5)
    image = pdf_page.render(scale=scale).to_pil().convert("RGB")  # PDFium applies the page's /Rotate
    to_page = _SCALE / scale
    size = (round(image.width * to_page), round(image.height * to_page))
    return PageText(number=page.number, size=size, boxes=tuple(recognise(image, scale=to_page)))


def _unreadable_pdf(error: Exception) -> UnreadableDocument:
    if _needs_password(error):
        return UnreadableDocument(
            "This PDF is protected by a password; please upload it without the password.", reason="encrypted"
        )
    logger.info("unreadable PDF: %r", error)
    return UnreadableDocument("This PDF could not be read; it may be damaged or only partly uploaded.", reason="broken")


def _needs_password(error: Exception) -> bool:
    """True for encryption a reader cannot open without a password (owner-only encryption opens fine)."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    cause = error.args[0] if error.args and isinstance(error.args[0], Exception) else error  # pdfplumber wraps
    if isinstance(cause, PDFPasswordIncorrect | PDFEncryptionError):
        return True
    return "password" in str(error).lower()  # PDFium: "Incorrect password error"
