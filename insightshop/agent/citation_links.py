"""Cited values in a chat reply become links to the receipt page that highlights their source.

Links are built from structured data only — a tool result's `total_citation` or a citation Claude returned,
mapped onto the receipt's own blocks — and kept in a "citations" card: {"type": "citations", "links": [{"text",
"url"}]}. The reply stays plain text (the API's `reply`); the panel splits it at each link's exact text and
outputs every piece escaped. No model or receipt text is ever marked up as HTML."""

from __future__ import annotations

import re

# Only the receipt page with a field (the pages' contract: /receipts/<id>?field=<name> highlights its source).
CITATION_URL = re.compile(r"^/receipts/\d+\?field=[a-z0-9_.]+$")
MAX_LINKS = 30


def link(text, url) -> dict | None:
    """One link, or None when its text is empty or its address is not a receipt field page."""
    text, url = str(text or "").strip(), str(url or "")
    if not text or not CITATION_URL.fullmatch(url):
        return None
    return {"text": text[:200], "url": url}


def citations_card(links) -> dict | None:
    """The card carrying a turn's citation links (None when there are none)."""
    kept = [found for found in (link(item.get("text"), item.get("url")) for item in links or []) if found]
    return {"type": "citations", "links": kept[:MAX_LINKS]} if kept else None


def citations_cards(links) -> list[dict]:
    """The citations card of an engine's own links, as a list (empty when there are none)."""
    card = citations_card(links)
    return [card] if card else []


def receipts_list_card(data: dict) -> dict | None:
    """receipts_list: each receipt total's short citation links to its receipt page."""
    receipts = data.get("receipts") if isinstance(data, dict) else None
    cited = [r.get("total_citation") for r in receipts or [] if isinstance(r, dict)]
    return citations_card([{"text": c.get("short"), "url": c.get("url")} for c in cited if isinstance(c, dict)])


def cited_segments(text: str | None, cards) -> dict:
    """The reply cut at each citation link's text, in order: {"segments": [{"text", "url"?}], "unlinked": [...]}.

    The leftmost occurrence of any pending link is taken first; a link is used once, so two receipts with the same
    citation text link to their own pages in the order the reply names them. Links whose text the reply does
    not contain come back as `unlinked` (the panel lists them as sources)."""
    text = str(text or "")
    pending = [item for card in cards or [] if isinstance(card, dict) and card.get("type") == "citations"
               for item in card.get("links") or [] if link(item.get("text"), item.get("url"))]  # fmt: skip
    segments, position = [], 0
    while pending:
        found = [(text.find(item["text"], position), index) for index, item in enumerate(pending)]
        found = [(start, index) for start, index in found if start >= 0]
        if not found:
            break
        start, index = min(found)
        item = pending.pop(index)
        if start > position:
            segments.append({"text": text[position:start]})
        segments.append({"text": item["text"], "url": item["url"]})
        position = start + len(item["text"])
    if position < len(text) or not segments:
        segments.append({"text": text[position:]})
    unlinked = list({item["url"]: item for item in pending}.values())
    return {"segments": segments, "unlinked": unlinked}
