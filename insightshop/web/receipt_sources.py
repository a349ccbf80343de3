"""Display-ready provenance for the receipt page: each value's review (status, history, citation, source), the text
view of the document's blocks and the boxes drawn over the image. Decided here so the template only prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from ..models.citations import DocumentBlock, ExtractedField
from ..models.receipts import Receipt
from ..services.citations.builder import citation_strings, source_blocks
from .filters import money

REVISION_TEXT = {
    "ocr_rules": "Read by the offline rules",
    "claude": "Read by Claude",
    "order_record": "From your InsightShop order",
}
INPUT_HINT = {
    "money": "An amount such as 12.50",
    "quantity": "A quantity such as 2 or 1.5",
    "date": "A date as YYYY-MM-DD",
    "currency": "A three-letter code such as USD",
    "string": "",
}


@dataclass(frozen=True)
class Revision:
    when: str
    method: str
    value: str
    confidence: str
    note: str


@dataclass(frozen=True)
class Source:
    line: int
    text: str
    before: str
    after: str


@dataclass
class Review:
    """One value as the page shows it: where it came from, how sure, who checked it, and its forms' state."""

    name: str
    label: str
    value: str
    raw: str
    hint: str
    blocks: str  # space-separated block ids, for the highlighting script
    span: str  # "start,end" of the value in the first block, or ""
    status: str
    verified: bool
    manual: bool
    can_verify: bool
    low_confidence: bool
    confidence: str
    history: list[Revision] = field(default_factory=list)
    citation: dict | None = None
    source: Source | None = None
    cited: bool = False
    error: str = ""
    note: str = ""


def display_value(value: str | None, kind: str, currency: str) -> str:
    """A stored value (text) as people read it."""
    if value is None or value == "":
        return "—"
    try:
        if kind == "money":
            return money(Decimal(value), currency)
        if kind == "date":
            return date.fromisoformat(value).strftime("%-d %B %Y")
    except (ValueError, InvalidOperation):
        return value
    return value


def day(moment) -> str:
    return moment.strftime("%-d %b %Y") if moment else ""


def _by(user, viewer_id: int | None) -> str:
    if user is None:
        return "someone"
    return "you" if user.id == viewer_id else (user.first_name or user.email)


def _method_text(revision, viewer_id: int | None) -> str:
    if revision.method == "manual":
        return f"Entered by {_by(revision.actor, viewer_id)}"
    if revision.method == "verification":
        return f"Verified by {_by(revision.actor, viewer_id)}"
    return REVISION_TEXT.get(revision.method, revision.method.replace("_", " ").capitalize())


def history(stored: ExtractedField, currency: str, viewer_id: int | None) -> list[Revision]:
    """Newest first: each revision's time, method in words, value and confidence."""
    return [
        Revision(when=revision.created_at.strftime("%-d %b %Y, %H:%M UTC") if revision.created_at else "",
                 method=_method_text(revision, viewer_id), value=display_value(revision.value, stored.value_type,
                                                                               currency),
                 confidence=f"{revision.confidence:.0%}" if revision.confidence is not None else "",
                 note=revision.note or "")
        for revision in reversed(stored.revisions)
    ]  # fmt: skip


def status_text(stored: ExtractedField | None, viewer_id: int | None) -> str:
    if stored is None or stored.value is None:
        return "Not found on the receipt"
    parts = []
    if stored.extraction_method == "manual":
        parts.append("Entered by hand — no source")
    elif stored.extraction_method == "order_record":
        parts.append("From your InsightShop order")
    if stored.verified:
        parts.append(f"Verified by {_by(stored.verified_by, viewer_id)} on {day(stored.verified_at)}")
    elif stored.extraction_method != "manual":
        parts.append("Unverified")
    return " · ".join(parts)


def make_review(receipt: Receipt, name: str, label: str, shown: str, context: dict) -> Review:
    """`context`: viewer_id, kind, low (bool), confidence (float or None), cited, errors, typed."""
    stored = context["fields"].get(name)
    currency = receipt.currency or "USD"
    blocks = source_blocks(receipt, stored) if stored else []
    first = blocks[0] if blocks else None
    span = f"{stored.span_start},{stored.span_end}" if first and stored.span_start is not None else ""
    score = context["confidence"]
    typed = context["typed"].get(name)
    return Review(
        name=name, label=label, value=shown, raw=typed[0] if typed else (stored.value or "" if stored else ""),
        hint=INPUT_HINT.get(context["kind"], ""), blocks=" ".join(b.block_id for b in blocks), span=span,
        status=status_text(stored, context["viewer_id"]), verified=bool(stored and stored.verified),
        manual=bool(stored and stored.extraction_method == "manual"),
        can_verify=bool(stored and stored.value is not None and not stored.verified),
        low_confidence=context["low"], confidence=f"{score:.0%}" if score is not None else "",
        history=history(stored, currency, context["viewer_id"]) if stored else [],
        citation=citation_strings(receipt, stored, first) if stored else None,
        source=Source(first.position + 1, first.text, first.context_before, first.context_after) if first else None,
        cited=name == context["cited"], error=context["errors"].get(name, ""), note=typed[1] if typed else "",
    )  # fmt: skip


def text_view(receipt: Receipt, cited: Review | None) -> list[dict]:
    """One entry per block, with the cited value's characters split out to be wrapped in <mark>."""
    first = cited.blocks.split(" ")[0] if cited and cited.blocks else None
    lines = []
    for block in sorted(receipt.blocks, key=lambda b: (b.page, b.position)):
        entry = {"id": block.block_id, "line": block.position + 1, "page": block.page, "text": block.text,
                 "parts": None, "cited": block.block_id == first}  # fmt: skip
        if entry["cited"]:
            entry["parts"] = _marked(block, cited.span)
        lines.append(entry)
    return lines


def _marked(block: DocumentBlock, span: str) -> tuple[str, str, str]:
    if not span:
        return block.text, "", ""
    start, end = (int(number) for number in span.split(","))
    start, end = max(0, min(start, len(block.text))), max(0, min(end, len(block.text)))
    return block.text[:start], block.text[start:end], block.text[end:]


def image_boxes(receipt: Receipt, cited: Review | None) -> dict | None:
    """The page's size and every located block of page 1, drawn in page pixels over the image (an SVG viewBox of
    the page's size scales with it, like percentages; the CSP allows no style attributes)."""
    located = [b for b in receipt.blocks if b.bbox and b.page == 1 and b.bbox.get("page_width")]
    if not located:
        return None
    lit = set(cited.blocks.split()) if cited else set()
    page = located[0].bbox
    boxes = [{"id": b.block_id, "x": b.bbox["x"], "y": b.bbox["y"], "width": b.bbox["width"],
              "height": b.bbox["height"], "cited": b.block_id in lit} for b in located]  # fmt: skip
    return {"width": page["page_width"], "height": page["page_height"], "boxes": boxes}
