"""From located boxes (OCR boxes, PDF words) to a document's lines: boxes in one visual row become one line.

A receipt prints "TOTAL      9.00" as two boxes far apart on one row; the extractor needs them on one line,
and the citation needs the box of each. So a line is its boxes left to right joined by single spaces, with
a bbox enclosing them and each box kept as a TextSegment.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import fmean

from ..document import BBox, ReceiptDocument, SourceKind, TextLine, TextSegment

_STACKED = 0.5  # boxes overlapping horizontally by more than this share of the narrower one are on different rows


@dataclass(frozen=True)
class Box:
    """A piece of text read at one place of a page."""

    text: str
    bbox: BBox
    confidence: float | None = None

    @property
    def centre_y(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2


@dataclass(frozen=True)
class PageText:
    """One page's boxes, in the page's pixels."""

    number: int  # 1-based
    size: tuple[int, int]  # width, height in pixels
    boxes: tuple[Box, ...]


@dataclass
class _Row:
    boxes: list[Box] = field(default_factory=list)

    @property
    def top(self) -> float:
        return fmean(box.bbox[1] for box in self.boxes)

    @property
    def bottom(self) -> float:
        return fmean(box.bbox[3] for box in self.boxes)

    @property
    def centre_y(self) -> float:
        return (self.top + self.bottom) / 2

    def accepts(self, box: Box) -> bool:
        """Vertical centres overlap both ways, and the box does not sit above or below one of the row's boxes."""
        _, y0, _, y1 = box.bbox
        if not (self.top <= box.centre_y <= self.bottom and y0 <= self.centre_y <= y1):
            return False
        return not any(_stacked(box.bbox, other.bbox) for other in self.boxes)


def _stacked(a: BBox, b: BBox) -> bool:
    overlap = min(a[2], b[2]) - max(a[0], b[0])
    narrower = min(a[2] - a[0], b[2] - b[0])
    return overlap > _STACKED * max(narrower, 1e-6)


def group_rows(boxes: Iterable[Box]) -> list[list[Box]]:
    """The boxes in visual rows, top to bottom, each row left to right."""
    rows: list[_Row] = []
    for box in sorted((box for box in boxes if box.text.strip()), key=lambda box: (box.centre_y, box.bbox[0])):
        candidates = [row for row in rows if row.accepts(box)]
        if candidates:
            min(candidates, key=lambda row: abs(row.centre_y - box.centre_y)).boxes.append(box)
        else:
            rows.append(_Row([box]))
    rows.sort(key=lambda row: row.centre_y)
    return [sorted(row.boxes, key=lambda box: box.bbox[0]) for row in rows]


def build_document(pages: Iterable[PageText], source: SourceKind) -> ReceiptDocument:
    """The pages' boxes as a document: one TextLine per visual row, pages in order."""
    lines: list[TextLine] = []
    offset, page_count = 0, 0
    for page in pages:
        page_count += 1
        for row in group_rows(page.boxes):
            line = _line(row, index=len(lines), page=page, offset=offset)
            lines.append(line)
            offset += len(line.text) + 1
    return ReceiptDocument(lines=tuple(lines), source=source, pages=max(page_count, 1))


def _line(row: list[Box], *, index: int, page: PageText, offset: int) -> TextLine:
    segments, parts, position = [], [], 0
    for box in row:
        text = " ".join(box.text.split())
        segments.append(TextSegment(position, position + len(text), _rounded(box.bbox), box.confidence))
        parts.append(text)
        position += len(text) + 1
    scores = [box.confidence for box in row if box.confidence is not None]
    return TextLine(
        index=index,
        text=" ".join(parts),
        page=page.number,
        bbox=_rounded(_union(box.bbox for box in row)),
        page_size=page.size,
        confidence=round(fmean(scores), 4) if scores else None,
        char_offset=offset,
        segments=tuple(segments),
    )


def _union(boxes: Iterable[BBox]) -> BBox:
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def _rounded(bbox: BBox) -> BBox:
    return tuple(round(value, 1) for value in bbox)  # type: ignore[return-value]
