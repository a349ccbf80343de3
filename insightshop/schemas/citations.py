"""Citation API shapes (seed 004): request schemas of /api/search, /api/mcp/search and field corrections, the
response schemas shared by the OpenAPI document and the citation tools' output schemas, and the URLs of a field's
source (added here: services know nothing of HTTP)."""

from __future__ import annotations

from flask import url_for

from ..services.citations.builder import FORMATS
from ..services.citations.search import AGGREGATE_FIELDS, CITE_AS, FIELD_NAME, OPERATIONS

TEXT = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": r"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"}  # fmt: skip
QUERY_TEXT = {"type": "string", "minLength": 1, "maxLength": 500, "pattern": TEXT["pattern"]}
AMOUNT_TEXT = {"type": "string", "pattern": r"^\d{1,8}(\.\d{1,2})?$", "maxLength": 11}
AMOUNT_NUMBER = {"type": "number", "minimum": 0, "maximum": 99999999}
BOOLEAN_TEXT = {"type": "string", "enum": ["true", "false", "1", "0"]}
CITATION_FORMAT = {"type": "string", "enum": list(FORMATS), "default": "long"}
FIELD_NAME_SCHEMA = {"type": "string", "maxLength": 64, "pattern": FIELD_NAME.pattern}


def _filters(amount: dict) -> dict:
    return {
        "merchant": TEXT,
        "date_from": {"type": "string", "format": "date"},
        "date_to": {"type": "string", "format": "date"},
        "min_amount": amount,
        "max_amount": amount,
        "category": TEXT,
    }


SEARCH_PARAMS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "q": QUERY_TEXT,
        "include_citations": BOOLEAN_TEXT,
        "citation_format": CITATION_FORMAT,
        "limit": {"type": "string", "pattern": "^[1-9]$|^[1-4][0-9]$|^50$"},
        **_filters(AMOUNT_TEXT),
    },
}
MCP_SEARCH_BODY = {
    "type": "object",
    "additionalProperties": False,
    "required": ["query"],
    "properties": {
        "query": QUERY_TEXT,
        "include_citations": {"type": "boolean", "default": True},
        "include_full_citations": {"type": "boolean", "default": False},
        "citation_format": CITATION_FORMAT,
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        **_filters(AMOUNT_NUMBER),
    },
}
FIELD_CORRECTION_BODY = {
    "type": "object",
    "additionalProperties": False,
    "required": ["value"],
    "properties": {
        "value": {"type": ["string", "null"], "maxLength": 500},
        "note": {"type": "string", "maxLength": 500},
    },
}

# Responses -----------------------------------------------------------------------------------------------------------

NULLABLE_STRING = {"type": ["string", "null"]}
NULLABLE_NUMBER = {"type": ["number", "null"]}
BBOX_OBJECT = {
    "type": ["object", "null"],
    "properties": {k: {"type": "number"} for k in ("x", "y", "width", "height", "page_width", "page_height")},
}
CITATION_SCHEMA = {
    "type": "object",
    "description": "Seed 004's citation object: what was extracted, where it came from, how reliable, and strings to quote",
    "required": ["field", "source", "extraction", "citation"],
    "properties": {
        "field": {"type": "object", "required": ["name", "value", "type"],
                  "properties": {"name": {"type": "string"}, "value": NULLABLE_STRING, "type": {"type": "string"}}},
        "source": {"type": "object", "required": ["document_id", "filename", "page", "bbox", "text"],
                   "properties": {"document_id": {"type": "integer"}, "filename": {"type": "string"},
                                  "block_ids": {"type": "array", "items": {"type": "string"}},
                                  "page": {"type": ["integer", "null"]}, "line": {"type": ["integer", "null"]},
                                  "bbox": BBOX_OBJECT, "text": NULLABLE_STRING,
                                  "span": {"type": ["object", "null"]}, "context": {"type": ["object", "null"]}}},
        "extraction": {"type": "object", "required": ["method", "confidence", "verified"],
                       "properties": {"method": {"enum": ["ocr_rules", "claude", "manual", "order_record"]},
                                      "confidence": NULLABLE_NUMBER, "verified": {"type": "boolean"},
                                      "verified_at": NULLABLE_STRING, "verified_by": NULLABLE_STRING}},
        "citation": {"type": "object", "required": list(FORMATS),
                     "properties": {name: {"type": "string"} for name in FORMATS}},
    },
}  # fmt: skip
FIELD_CITATION_SCHEMA = {
    "type": "object",
    "description": "One value's citation as the search API gives it: quote citation_string when you use the value",
    "required": ["field", "value", "source_text", "page", "bbox", "confidence", "verified", "citation_string"],
    "properties": {
        "field": {"type": "string"}, "value": NULLABLE_STRING, "source_text": NULLABLE_STRING,
        "page": {"type": ["integer", "null"]}, "line": {"type": ["integer", "null"]},
        "bbox": {"type": ["array", "null"], "items": {"type": "number"}, "minItems": 4, "maxItems": 4},
        "confidence": NULLABLE_NUMBER, "verified": {"type": "boolean"}, "extraction_method": {"type": "string"},
        "citation_string": {"type": "string"}, "full_citation": CITATION_SCHEMA,
    },
}  # fmt: skip
MCP_CONTEXT_SCHEMA = {
    "type": "object",
    "required": ["query", "citation_format", "all_verified", "confidence_summary"],
    "properties": {"query": {"type": "string"}, "citation_format": {"type": "string"},
                   "all_verified": {"type": "boolean"}, "confidence_summary": {"type": "string"}},
}  # fmt: skip
SEARCH_RESULT_SCHEMA = {
    "type": "object",
    "required": ["document_id", "filename", "kind", "fields", "summary", "url"],
    "properties": {
        "document_id": {"type": "integer"}, "filename": {"type": "string"},
        "kind": {"enum": ["upload", "order_receipt"]}, "status": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": NULLABLE_STRING}, "summary": {"type": "string"},
        "url": {"type": "string"}, "citations": {"type": "object", "additionalProperties": FIELD_CITATION_SCHEMA},
    },
}  # fmt: skip
SEARCH_RESPONSE_SCHEMA = {
    "type": "object",
    "required": ["results", "total", "filters", "llm_context", "mcp_context"],
    "properties": {
        "results": {"type": "array", "items": SEARCH_RESULT_SCHEMA},
        "total": {"type": "integer"},
        "filters": {"type": "object"},
        "llm_context": {"type": "object", "required": ["query_interpretation", "confidence_note", "suggested_answer"],
                        "properties": {k: {"type": "string"} for k in
                                       ("query_interpretation", "confidence_note", "suggested_answer")}},
        "mcp_context": MCP_CONTEXT_SCHEMA,
    },
}  # fmt: skip
PROVENANCE_SCHEMA = {
    "type": "object",
    "required": ["document_id", "field", "value", "full_citation", "extraction_history", "source_document_url",
                 "source_location_url", "mcp_context"],
    "properties": {
        "document_id": {"type": "integer"}, "field": {"type": "string"}, "value": NULLABLE_STRING,
        "full_citation": CITATION_SCHEMA,
        "extraction_history": {"type": "array", "items": {
            "type": "object", "required": ["timestamp", "method", "value", "confidence"],
            "properties": {"timestamp": {"type": "string"}, "method": {"type": "string"}, "value": NULLABLE_STRING,
                           "confidence": NULLABLE_NUMBER, "actor": NULLABLE_STRING, "note": NULLABLE_STRING}}},
        "source_document_url": NULLABLE_STRING,
        "source_location_url": {"type": "string"},
        "mcp_context": MCP_CONTEXT_SCHEMA,
    },
}  # fmt: skip
AGGREGATION_SCHEMA = {
    "type": "object",
    "required": ["aggregation", "sources", "filters", "llm_summary", "mcp_context"],
    "properties": {
        "aggregation": {"type": "object", "required": ["type", "field", "result", "currency", "count", "by_currency"],
                        "properties": {"type": {"enum": list(OPERATIONS)}, "field": {"enum": list(AGGREGATE_FIELDS)},
                                       "result": {"type": ["string", "integer", "null"]}, "currency": NULLABLE_STRING,
                                       "count": {"type": "integer"},
                                       "by_currency": {"type": "array", "items": {
                                           "type": "object", "required": ["currency", "count", "result"],
                                           "properties": {"currency": {"type": "string"}, "count": {"type": "integer"},
                                                          "result": {"type": ["string", "integer"]}}}}}},
        "sources": {"type": "array", "items": {
            "type": "object", "required": ["document_id", "filename", "field", "value", "currency", "citation"],
            "properties": {"document_id": {"type": "integer"}, "filename": {"type": "string"},
                           "field": NULLABLE_STRING, "value": {"type": "string", "pattern": r"^\d+\.\d{2}$"},
                           "currency": {"type": "string"}, "citation": {"type": "string"},
                           "source_text": NULLABLE_STRING, "verified": {"type": "boolean"},
                           "confidence": NULLABLE_NUMBER}}},
        "filters": {"type": "object"},
        "llm_summary": {"type": "object", "required": ["answer", "citations", "confidence", "all_verified"],
                        "properties": {"answer": {"type": "string"},
                                       "citations": {"type": "array", "items": {"type": "string"}},
                                       "confidence": {"enum": ["high", "medium", "low"]},
                                       "all_verified": {"type": "boolean"}}},
        "mcp_context": MCP_CONTEXT_SCHEMA,
    },
}  # fmt: skip


def with_urls(search: dict) -> dict:
    """A search answer with each result's receipt page URL."""
    for result in search["results"]:
        result["url"] = url_for("receipts.show_receipt", receipt_id=result["document_id"])
    return search


def provenance_to_dict(receipt, field, data: dict, citation_format: str = "long") -> dict:
    """The provenance with the owner-only file URL and the receipt page URL that highlights the source."""
    location = data.pop("location")
    where = {"field": field.field_name}
    if location:
        where["page"] = location["page"]
        box = location["bbox"]
        if box:
            where["bbox"] = ",".join(f"{box[k]:g}" for k in ("x", "y", "width", "height"))
    trusted = field.verified
    return data | {
        "source_document_url": url_for("api.receipt_file", receipt_id=receipt.id) if receipt.stored_name else None,
        "source_location_url": url_for("receipts.show_receipt", receipt_id=receipt.id, **where),
        "mcp_context": {
            "query": f"provenance of {field.field_name} on receipt {receipt.id}",
            "citation_format": CITE_AS[citation_format],
            "all_verified": trusted,
            "confidence_summary": _confidence_words(field),
        },
    }


def _confidence_words(field) -> str:
    if field.verified:
        return "verified by the owner"
    if field.confidence is None:
        return "no confidence recorded"
    return f"{field.extraction_method}, {field.confidence:.0%} confidence, not verified"
