"""Receipts as citable documents for Claude, and Claude's citations back onto the receipts' own blocks.

When receipts_list or receipt_get answers, each receipt it names goes to the model as a custom-content document
(one text content block per non-blank DocumentBlock line, title = the file's name, context = the receipt id)
with citations enabled: Claude cannot cite inside images, but it can cite these lines. A returned
`content_block_location` citation (document_index, start/end_block_index, cited_text) is mapped back onto the
DocumentBlocks it covers, then onto the field whose source they are (the total when none is): a link to
/receipts/<id>?field=<name>, the page that highlights that field's source line.

Receipts are loaded through the receipts service as the caller, so only the caller's own receipts are sent."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

from flask import current_app, has_request_context

from ..schemas.cited_values import TOTAL, cited_value
from ..services.actors import Actor
from ..services.citations.builder import field_by_name
from ..services.errors import DomainError
from ..services.receipts import library
from . import citation_links
from .redaction import redact
from .replies import trust_note

RECEIPT_TOOLS = ("receipts_list", "receipt_get")
MAX_DOCUMENTS = 10  # receipts_list returns at most a page of them
TITLE_CHARS = 100


@dataclass(frozen=True)
class SentDocument:
    """One document as sent: whose receipt, its title, and the block id and text behind each content index."""

    receipt_id: int
    title: str
    block_ids: tuple[str, ...]
    texts: tuple[str, ...]


class ReceiptDocuments:
    """The receipt documents of one turn's requests, in the order the API numbers them (document_index)."""

    def __init__(self, actor: Actor | None):
        self.actor = actor
        self.sent: list[SentDocument] = []

    def for_entry(self, entry: dict | None) -> list[dict]:
        """The document blocks to send beside an executed receipt tool's result (none for other tools)."""
        if self.actor is None or not entry or entry.get("name") not in RECEIPT_TOOLS or entry["outcome"] != "executed":
            return []
        documents = []
        for receipt_id in _receipt_ids(entry["name"], entry["result"])[:MAX_DOCUMENTS]:
            receipt = self._receipt(receipt_id)
            lines = [(b.block_id, redact(b.text)) for b in receipt.blocks if b.text.strip()] if receipt else []
            if not lines:
                continue  # nothing to cite (a receipt not read yet); an empty document is refused
            ids, texts = tuple(line[0] for line in lines), tuple(line[1] for line in lines)
            sent = SentDocument(receipt.id, receipt.original_filename[:TITLE_CHARS], ids, texts)
            self.sent.append(sent)
            documents.append({"type": "document", "title": sent.title, "context": f"receipt {receipt.id}",
                              "citations": {"enabled": True},
                              "source": {"type": "content", "content": [{"type": "text", "text": t} for t in sent.texts]}})  # fmt: skip
        return documents

    def link(self, citation) -> dict | None:
        """A citation Claude returned, as {"text", "url", "note"}: the cited field's short citation and its page."""
        if getattr(citation, "type", None) != "content_block_location":
            return None
        sent = self._document(citation)
        if sent is None:
            return None
        cited_blocks = set(sent.block_ids[citation.start_block_index : citation.end_block_index])
        receipt = self._receipt(sent.receipt_id)
        if receipt is None:
            return None
        with nullcontext() if has_request_context() else current_app.test_request_context("/"):  # url_for
            cited = cited_value(receipt, _field_name(receipt, cited_blocks))
        if cited is None:
            return None
        found = citation_links.link(cited["short"], cited["url"])
        return found | {"note": trust_note(cited)} if found else None

    def _document(self, citation) -> SentDocument | None:
        """The document cited: by its index, checked against its title and cited text (context editing may have
        cleared earlier tool results, shifting the numbering); otherwise the one document whose lines match."""
        index = citation.document_index

        def matches(sent: SentDocument) -> bool:
            start, end = citation.start_block_index, citation.end_block_index
            if not 0 <= start < end <= len(sent.texts):
                return False
            same_title = citation.document_title in (None, sent.title)
            return same_title and _squash("".join(sent.texts[start:end])) == _squash(citation.cited_text or "")

        if 0 <= index < len(self.sent) and matches(self.sent[index]):
            return self.sent[index]
        candidates = [sent for sent in self.sent if matches(sent)]
        return candidates[0] if len({s.receipt_id for s in candidates}) == 1 else None

    def _receipt(self, receipt_id: int):
        try:
            return library.get_receipt(self.actor, receipt_id)
        except DomainError:
            return None


def _receipt_ids(tool: str, result) -> list[int]:
    if not isinstance(result, dict):
        return []
    if tool == "receipt_get":
        receipt = result.get("receipt") or {}
        return [receipt["id"]] if isinstance(receipt.get("id"), int) else []
    return [r["id"] for r in result.get("receipts") or [] if isinstance(r, dict) and isinstance(r.get("id"), int)]


def _field_name(receipt, cited_blocks: set[str]) -> str:
    """The field whose source the cited lines are (the total first, then the order fields were read); else the total."""
    total = field_by_name(receipt, TOTAL)
    if total is not None and cited_blocks & set(total.source_block_ids or []):
        return TOTAL
    for field in receipt.fields:
        if field.value is not None and cited_blocks & set(field.source_block_ids or []):
            return field.field_name
    return TOTAL


def _squash(text: str) -> str:
    return "".join(text.split())
