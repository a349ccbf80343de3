"""Citation-aware access to the caller's receipts for AI agents (seed 004): search with citations per field, the
provenance of one field, and aggregates whose every source value is cited.

Owner only: every receipt comes from services.receipts.library. Money is Decimal; totals are never added across
currencies. URLs are added by the caller's layer (schemas.citations), not here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from ...models.citations import ExtractedField
from ...models.receipts import LOW_CONFIDENCE, Receipt
from ..actors import Actor
from ..errors import NotFound
from ..receipts import library
from ..receipts.library import ReceiptFilters
from ..receipts.query_words import receipt_filters
from .builder import FORMATS, build_citation, field_by_name, source_blocks

DB_INT_MAX = 2**31 - 1
RECEIPT_FIELDS = ("merchant_name", "purchase_date", "currency", "subtotal", "tax_amount", "total_amount")
AGGREGATE_FIELDS = ("total_amount", "subtotal", "tax_amount", "item_total_price")
OPERATIONS = ("sum", "avg", "count", "min", "max")
FIELD_NAME = re.compile(
    r"^(?:merchant_name|merchant_address|purchase_date|currency|subtotal|tax_amount|total_amount"
    r"|items\.[1-9][0-9]{0,3}\.(?:item_name|quantity|unit_price|total_price))$"
)
CITE_AS = {
    "short": "Cite as: [filename, line N] (p.N, line N when the document has pages)",
    "long": 'Cite as: filename, line N: "the source text quoted"',
    "academic": "Cite as: filename (line N, verified <date> | unverified, N% confidence)",
}
MAX_RESULTS = 50
MAX_SOURCES = 1000  # receipts an aggregate reads; more is said in the answer, never silently dropped
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Query:
    """What to search: free text (parsed into filters) and explicit filters, which win over the words."""

    text: str | None = None
    filters: dict | None = None
    citation_format: str = "long"
    today: date | None = None


def interpret(query: Query) -> dict:
    """The filters of a query: its words parsed, then the explicit filters merged over them."""
    words = receipt_filters(query.text, today=query.today or date.today()) if query.text else {}
    explicit = {key: value for key, value in (query.filters or {}).items() if value not in (None, "")}
    return words | explicit


def receipt_filters_of(values: dict) -> ReceiptFilters:
    def amount(key):
        return Decimal(str(values[key])).quantize(CENT) if values.get(key) is not None else None

    def day(key):
        return date.fromisoformat(values[key]) if values.get(key) else None

    return ReceiptFilters(merchant=values.get("merchant"), category=values.get("category"),
                          date_from=day("date_from"), date_to=day("date_to"),
                          min_amount=amount("min_amount"), max_amount=amount("max_amount"))  # fmt: skip


def describe(values: dict) -> str:
    """The filters in words, for the model to check its reading of the question against."""
    parts = []
    if values.get("merchant"):
        parts.append(f'from merchants matching "{values["merchant"]}"')
    if values.get("date_from") or values.get("date_to"):
        parts.append(f"dated {values.get('date_from') or 'any time'} to {values.get('date_to') or 'today'}")
    if values.get("min_amount") is not None:
        parts.append(f"with a total of at least {Decimal(str(values['min_amount'])):.2f}")
    if values.get("max_amount") is not None:
        parts.append(f"with a total of at most {Decimal(str(values['max_amount'])):.2f}")
    if values.get("category"):
        parts.append(f"with an item in {values['category']}")
    return "Searching your receipts " + ", ".join(parts) if parts else "Searching all your receipts"


# Citations ----------------------------------------------------------------------------------------------------------


def field_citation(receipt: Receipt, field: ExtractedField, citation_format: str, *, full: bool = False) -> dict:
    """Seed 004's per-field citation of the search API: value, source text, page, bbox, confidence, citation_string."""
    citation = build_citation(receipt, field)
    source, extraction = citation["source"], citation["extraction"]
    box = source["bbox"]
    compact = {
        "field": field.field_name,
        "value": field.value,
        "source_text": source["text"],
        "page": source["page"],
        "line": source["line"],
        "bbox": [box["x"], box["y"], box["width"], box["height"]] if box else None,
        "confidence": extraction["confidence"],
        "verified": extraction["verified"],
        "extraction_method": extraction["method"],
        "citation_string": citation["citation"][citation_format],
    }
    return compact | {"full_citation": citation} if full else compact


def _cited_fields(receipt: Receipt) -> list[ExtractedField]:
    return [f for name in RECEIPT_FIELDS if (f := field_by_name(receipt, name)) is not None and f.value is not None]


def _trust_note(fields: list[ExtractedField], what: str) -> str:
    if not fields:
        return f"No {what} to cite"
    verified = sum(1 for f in fields if f.verified)
    low = sum(1 for f in fields if f.confidence is not None and f.confidence < LOW_CONFIDENCE)
    shop = sum(1 for f in fields if f.extraction_method == "order_record" and not f.verified)
    notes = [f"{verified} of {len(fields)} {what} verified"]
    if low:
        notes.append(f"{low} below {LOW_CONFIDENCE:.0%} confidence")
    if shop:
        notes.append(f"{shop} from the shop's own order records")
    return "; ".join(notes)


def confidence_level(fields: list[ExtractedField]) -> str:
    """high: verified or all at least 90%; low: a value without a source or below the review threshold."""
    if any(f.confidence is None or f.confidence < LOW_CONFIDENCE or not f.source_block_ids and not f.verified
           for f in fields):  # fmt: skip
        return "low"
    if all(f.verified or f.confidence >= 0.9 for f in fields):
        return "high"
    return "medium"


def _mcp_context(query: Query, values: dict, totals: list[ExtractedField], results: int) -> dict:
    return {
        "query": query.text or describe(values),
        "citation_format": CITE_AS[query.citation_format],
        "all_verified": bool(totals) and all(f.verified for f in totals),
        "confidence_summary": f"{results} {_plural(results, 'result')}; {_trust_note(totals, 'totals')}",
    }


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


# Search -------------------------------------------------------------------------------------------------------------


def search_documents(actor: Actor, query: Query, *, include_citations: bool = True, full: bool = False,
                     limit: int = 20) -> dict:  # fmt: skip
    """The caller's receipts matching the query, newest first, with each value's citation in the asked format."""
    values = interpret(query)
    found = library.list_receipts(actor, receipt_filters_of(values), per_page=max(1, min(limit, MAX_RESULTS)))
    results = [_result(r, query.citation_format, include_citations, full) for r in found.receipts]
    totals = [f for r in found.receipts if (f := field_by_name(r, "total_amount")) is not None and f.value]
    return {
        "results": results,
        "total": found.total,
        "filters": values,
        "llm_context": {
            "query_interpretation": describe(values),
            "confidence_note": _trust_note(totals, "totals"),
            "suggested_answer": _suggested_answer(found.total, found.receipts, query.citation_format),
        },
        "mcp_context": _mcp_context(query, values, totals, found.total),
    }


def _result(receipt: Receipt, citation_format: str, include_citations: bool, full: bool) -> dict:
    fields = _cited_fields(receipt)
    result = {
        "document_id": receipt.id,
        "filename": receipt.original_filename,
        "kind": "order_receipt" if receipt.order_id else "upload",
        "status": receipt.status,
        "fields": {f.field_name: f.value for f in fields},
        "summary": _summary(receipt),
    }
    if include_citations:
        result["citations"] = {f.field_name: field_citation(receipt, f, citation_format, full=full) for f in fields}
    return result


def _summary(receipt: Receipt) -> str:
    total = field_by_name(receipt, "total_amount")
    who = receipt.merchant_name or "an unknown merchant"
    when = f" on {receipt.purchase_date.isoformat()}" if receipt.purchase_date else ""
    if total is None or total.value is None:
        return f"Receipt from {who}{when} (no total read)"
    short = build_citation(receipt, total)["citation"]["short"]
    return f"Receipt from {who}{when} totaling {_amount(total.value, receipt)} {short}"


def _suggested_answer(count: int, receipts: list[Receipt], citation_format: str) -> str:
    if not count:
        return "No receipts match. Say so; do not guess values."
    priced = [(r, f) for r in receipts if (f := field_by_name(r, "total_amount")) is not None and f.value]
    head = f"Found {count} {_plural(count, 'receipt')} meeting your criteria."
    if not priced:
        return head
    receipt, field = max(priced, key=lambda pair: Decimal(pair[1].value))
    cited = build_citation(receipt, field)["citation"][citation_format]
    who = receipt.merchant_name or receipt.original_filename
    return f"{head} The highest total is from {who} at {_amount(field.value, receipt)} ({cited})."


def _amount(value: str, receipt: Receipt) -> str:
    return f"{value} {receipt.currency}" if receipt.currency else value


# Provenance ---------------------------------------------------------------------------------------------------------


def check_field_address(document_id: int, field_name: str) -> None:
    """404 for an id no column holds or a name no receipt field has (before any query runs)."""
    if not 1 <= document_id <= DB_INT_MAX or not FIELD_NAME.match(field_name or ""):
        raise NotFound("No such receipt field")


def field_provenance(actor: Actor, document_id: int, field_name: str) -> tuple[Receipt, ExtractedField, dict]:
    """The caller's field with its full citation and history; another user's receipt or an unknown field is 404."""
    check_field_address(document_id, field_name)
    receipt = library.get_receipt(actor, document_id)
    field = field_by_name(receipt, field_name)
    if field is None:
        raise NotFound(f"This receipt has no field {field_name!r}")
    owner = receipt.user_id
    history = [
        {"timestamp": revision.created_at.isoformat(), "method": revision.method, "value": revision.value,
         "confidence": revision.confidence, "note": revision.note or None,
         "actor": revision.actor.email if revision.actor and revision.actor_id == owner else None}
        for revision in field.revisions
    ]  # fmt: skip
    blocks = source_blocks(receipt, field)
    return (
        receipt,
        field,
        {
            "document_id": receipt.id,
            "field": field.field_name,
            "value": field.value,
            "full_citation": build_citation(receipt, field),
            "extraction_history": history,
            "location": {"page": blocks[0].page, "bbox": blocks[0].bbox} if blocks else None,
        },
    )


# Aggregates ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    receipt: Receipt
    field: ExtractedField | None
    value: Decimal
    currency: str


def aggregate_with_citations(actor: Actor, operation: str, field: str, query: Query) -> dict:
    """sum/avg/count/min/max of a money field over the caller's matching receipts, per currency, every value cited.

    The values added are exactly the cited ones (the receipt's stored values, as printed with two decimals)."""
    values = interpret(query)
    receipts, total = _all_matching(actor, receipt_filters_of(values))
    sources = [source for receipt in receipts for source in _sources(receipt, field)]
    by_currency = _by_currency(operation, sources)
    cited = [_cited_source(s, query.citation_format) for s in sources]
    fields = [s.field for s in sources if s.field is not None]
    return {
        "aggregation": {
            "type": operation,
            "field": field,
            "result": by_currency[0]["result"] if len(by_currency) == 1 else None,
            "currency": by_currency[0]["currency"] if len(by_currency) == 1 else None,
            "count": len(sources),
            "by_currency": by_currency,
        },
        "sources": cited,
        "filters": values,
        "llm_summary": _llm_summary(operation, field, by_currency, cited, sources, total > len(receipts)),
        "mcp_context": _mcp_context(query, values, fields, len(sources)),
    }


def _all_matching(actor: Actor, filters: ReceiptFilters) -> tuple[list[Receipt], int]:
    receipts: list[Receipt] = []
    page = 1
    while True:
        found = library.list_receipts(actor, filters, page=page, per_page=library.MAX_PER_PAGE)
        receipts.extend(r for r in found.receipts if r.is_done)
        if page >= found.pages or len(receipts) >= MAX_SOURCES:
            return receipts[:MAX_SOURCES], found.total
        page += 1


def _sources(receipt: Receipt, field: str) -> list[Source]:
    currency = receipt.currency or "USD"
    if field == "item_total_price":
        pairs = [(f"items.{item.line_number}.total_price", item.total_price) for item in receipt.items]
    else:
        pairs = [(field, getattr(receipt, field))]
    return [Source(receipt, field_by_name(receipt, name), value.quantize(CENT), currency)
            for name, value in pairs if value is not None]  # fmt: skip


def _by_currency(operation: str, sources: list[Source]) -> list[dict]:
    groups: dict[str, list[Source]] = {}
    for source in sources:
        groups.setdefault(source.currency, []).append(source)
    return [{"currency": currency, "count": len(group), "result": _apply(operation, [s.value for s in group])}
            for currency, group in sorted(groups.items())]  # fmt: skip


def _apply(operation: str, values: list[Decimal]) -> str | int:
    if operation == "count":
        return len(values)
    if operation == "sum":
        return f"{sum(values, Decimal('0.00')):.2f}"
    if operation == "avg":
        return f"{(sum(values, Decimal('0')) / len(values)).quantize(CENT, ROUND_HALF_UP):.2f}"
    return f"{(min if operation == 'min' else max)(values):.2f}"


def _cited_source(source: Source, citation_format: str) -> dict:
    receipt, field = source.receipt, source.field
    citation = (
        build_citation(receipt, field)["citation"][citation_format] if field else f"[{receipt.original_filename}]"
    )
    first = source_blocks(receipt, field)[:1] if field else []
    return {
        "document_id": receipt.id,
        "filename": receipt.original_filename,
        "field": field.field_name if field else None,
        "value": f"{source.value:.2f}",
        "currency": source.currency,
        "citation": citation,
        "source_text": first[0].text if first else None,
        "verified": bool(field and field.verified),
        "confidence": field.confidence if field else None,
    }


def _llm_summary(operation, field, by_currency, cited, sources, truncated: bool) -> dict:
    fields = [s.field for s in sources if s.field is not None]
    if not sources:
        answer = "No receipts with that value match; there is nothing to add up."
    else:
        results = " and ".join(f"{group['result']} {group['currency']}" for group in by_currency)
        counted = _plural(len(sources), "item" if field == "item_total_price" else "receipt")
        answer = f"{OPERATION_WORDS[operation]} of the {FIELD_WORDS[field]} over {len(sources)} {counted}: {results}"
        if len(by_currency) > 1:
            answer += " (different currencies are never added together)"
        if truncated:
            answer += f"; only the first {MAX_SOURCES} receipts were read"
    lines = [f"{c['citation']}: {c['value']} {c['currency']}" for c in cited]
    return {
        "answer": answer + ("." if sources else ""),
        "citations": lines,
        "confidence": confidence_level(fields) if len(fields) == len(sources) and sources else "low",
        "all_verified": bool(sources) and len(fields) == len(sources) and all(f.verified for f in fields),
    }


OPERATION_WORDS = {"sum": "Sum", "avg": "Average", "count": "Count", "min": "Smallest", "max": "Largest"}
FIELD_WORDS = {"total_amount": "receipt totals", "subtotal": "subtotals", "tax_amount": "tax amounts",
               "item_total_price": "item prices"}  # fmt: skip

__all__ = ["FORMATS", "Query", "aggregate_with_citations", "field_provenance", "search_documents"]
