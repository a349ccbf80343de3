"""What every reader produces and every extraction engine consumes: a document as located text lines.

A line keeps where it came from (page, box in page pixels, OCR score, offset in the document's text) so that
every value extracted from it can be cited later: the line, the character span inside it, and its box.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

BBox = tuple[float, float, float, float]  # x0, y0, x1, y1 in page pixels, origin top left
SourceKind = Literal["text", "pdf_text", "ocr", "order_record"]


@dataclass(frozen=True)
class TextSegment:
    """A run of a line's text with a box of its own (an OCR box, a PDF word), to cite a value's exact place."""

    start: int  # character span in TextLine.text
    end: int
    bbox: BBox
    confidence: float | None = None


@dataclass(frozen=True)
class TextLine:
    """One line of a document, top to bottom, as read."""

    index: int  # 0-based position in ReceiptDocument.lines
    text: str
    page: int = 1
    bbox: BBox | None = None
    page_size: tuple[int, int] | None = None  # (width, height) in pixels of the page the bbox refers to
    confidence: float | None = None  # OCR score 0..1; None for text that was not recognised from pixels
    char_offset: int = 0  # where this line starts in ReceiptDocument.text
    segments: tuple[TextSegment, ...] = ()  # left to right; empty for plain text


@dataclass(frozen=True)
class ReceiptDocument:
    """A read document: its lines in reading order and how they were obtained."""

    lines: tuple[TextLine, ...]
    source: SourceKind
    pages: int = 1

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @classmethod
    def from_lines(cls, texts: list[str], source: SourceKind = "text", **line_fields) -> ReceiptDocument:
        """A document from plain strings (offsets computed; no boxes)."""
        lines, offset = [], 0
        for index, text in enumerate(texts):
            lines.append(TextLine(index=index, text=text, char_offset=offset, **line_fields))
            offset += len(text) + 1
        return cls(lines=tuple(lines), source=source)


@dataclass(frozen=True)
class Evidence:
    """Where a value was read: a line and the character span of the value as printed in it."""

    line_index: int
    start: int
    end: int


@dataclass(frozen=True)
class ExtractedValue:
    """One extracted field value with its confidence and its evidence (empty when inferred)."""

    value: str | Decimal | None
    confidence: float
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class ExtractedItem:
    """One line item; quantity and unit price are None when the receipt does not print them."""

    line_number: int  # 1-based position among the items
    item_name: str
    total_price: Decimal
    quantity: Decimal | None = None
    unit_price: Decimal | None = None
    confidence: float = 0.0
    evidence: dict[str, tuple[Evidence, ...]] = field(default_factory=dict)  # per attribute: item_name, total_price…


@dataclass(frozen=True)
class ReceiptExtraction:
    """What an engine found. Dates are ISO strings (YYYY-MM-DD), money is Decimal, currency an ISO 4217 code."""

    merchant_name: ExtractedValue
    merchant_address: ExtractedValue
    purchase_date: ExtractedValue
    currency: ExtractedValue
    subtotal: ExtractedValue
    tax_amount: ExtractedValue
    total_amount: ExtractedValue
    items: tuple[ExtractedItem, ...]
    confidence: float
    engine: str  # e.g. "offline-rules-1" or the Claude model id
