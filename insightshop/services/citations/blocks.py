"""A read document's lines as DocumentBlocks, with their boxes and up to 200 characters of context each side."""

from __future__ import annotations

from ...models.citations import CONTEXT_CHARS, DocumentBlock
from ..receipts.document import ReceiptDocument, TextLine


def block_id(line: TextLine) -> str:
    return f"p{line.page}-l{line.index + 1}"


def blocks_for(document: ReceiptDocument) -> list[DocumentBlock]:
    """One block per text line, in reading order (the receipt's previous blocks are replaced by the caller)."""
    text = document.text
    return [
        DocumentBlock(block_id=block_id(line), block_type="line", position=line.index, text=line.text,
                      page=line.page, char_offset=line.char_offset, bbox=_bbox(line), confidence=line.confidence,
                      context_before=text[max(0, line.char_offset - CONTEXT_CHARS): line.char_offset].lstrip("\n"),
                      context_after=_after(text, line))
        for line in document.lines
    ]  # fmt: skip


def _after(text: str, line: TextLine) -> str:
    end = line.char_offset + len(line.text)
    return text[end : end + CONTEXT_CHARS + 1].removeprefix("\n")[:CONTEXT_CHARS]


def _bbox(line: TextLine) -> dict | None:
    if line.bbox is None:
        return None
    x0, y0, x1, y1 = line.bbox
    box = {"x": round(x0, 1), "y": round(y0, 1), "width": round(x1 - x0, 1), "height": round(y1 - y0, 1)}
    if line.page_size:
        box |= {"page_width": line.page_size[0], "page_height": line.page_size[1]}
    return box
