"""The citation object of seed 004 for one extracted field, and its three strings (short, long, academic).

The one builder the API, the tools, the pages and the assistant use. A value typed by hand says so; it never
gets a source it does not have."""

from __future__ import annotations

from ...models.citations import DocumentBlock, ExtractedField
from ...models.receipts import Receipt

FORMATS = ("short", "long", "academic")
QUOTE_CHARS = 120


def source_blocks(receipt: Receipt, field: ExtractedField) -> list[DocumentBlock]:
    by_id = {block.block_id: block for block in receipt.blocks}
    return [by_id[block_id] for block_id in field.source_block_ids or [] if block_id in by_id]


def build_citation(receipt: Receipt, field: ExtractedField) -> dict:
    """field, source (page, bbox, text, span, context), extraction (method, confidence, verification), citation."""
    blocks = source_blocks(receipt, field)
    first = blocks[0] if blocks else None
    return {
        "field": {"name": field.field_name, "value": field.value, "type": field.value_type},
        "source": _source(receipt, field, first, blocks),
        "extraction": {
            "method": field.extraction_method,
            "confidence": field.confidence,
            "verified": field.verified,
            "verified_at": field.verified_at.isoformat() if field.verified_at else None,
            "verified_by": field.verified_by.email if field.verified_by else None,
        },
        "citation": citation_strings(receipt, field, first),
    }


def _source(receipt: Receipt, field: ExtractedField, first: DocumentBlock | None, blocks) -> dict:
    source = {
        "document_id": receipt.id,
        "filename": receipt.original_filename,
        "block_ids": [b.block_id for b in blocks],
    }
    if first is None:
        return source | {"page": None, "line": None, "bbox": None, "text": None, "span": None, "context": None}
    span = {"start": field.span_start, "end": field.span_end} if field.span_start is not None else None
    return source | {
        "page": first.page,
        "line": first.position + 1,
        "bbox": first.bbox,
        "text": first.text,
        "span": span,
        "context": {"before": first.context_before, "after": first.context_after},
    }


def citation_strings(receipt: Receipt, field: ExtractedField, first: DocumentBlock | None) -> dict:
    name = receipt.original_filename
    if first is None:
        how = "entered by hand" if field.extraction_method == "manual" else "no source text"
        return {"short": f"[{name}, {how}]", "long": f"{name}: {how} (no source text to quote)",
                "academic": f"{name} ({how}{_trust(field)})"}  # fmt: skip
    where = _where(receipt, first)
    quote = first.text.strip()
    if len(quote) > QUOTE_CHARS:
        quote = quote[: QUOTE_CHARS - 1] + "…"
    return {"short": f"[{name}, {where}]", "long": f'{name}, {where}: "{quote}"',
            "academic": f"{name} ({where}{_trust(field)})"}  # fmt: skip


def _where(receipt: Receipt, block: DocumentBlock) -> str:
    line = f"line {block.position + 1}"
    pages = max((b.page for b in receipt.blocks), default=1)
    return f"p.{block.page}, {line}" if pages > 1 else line


def _trust(field: ExtractedField) -> str:
    if field.verified and field.verified_at:
        return f", verified {field.verified_at.strftime('%b %-d %Y')}"
    if field.extraction_method in ("manual", "order_record"):
        return ""
    if field.confidence is not None:
        return f", unverified, {field.confidence:.0%} confidence"
    return ", unverified"


def field_by_name(receipt: Receipt, field_name: str) -> ExtractedField | None:
    return next((field for field in receipt.fields if field.field_name == field_name), None)
