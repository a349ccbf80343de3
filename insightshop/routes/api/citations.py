"""Citations for API clients and AI agents (seed 004): search with citations, a field's provenance, and the owner's
corrections and verifications (the receipt page's JSON twin). Signed-in users only; owner-only data."""

from __future__ import annotations

from datetime import date

from flask import request

from ...schemas.citations import (
    FIELD_CORRECTION_BODY,
    MCP_SEARCH_BODY,
    SEARCH_PARAMS,
    provenance_to_dict,
    with_urls,
)  # fmt: skip
from ...schemas.receipts import receipt_to_dict
from ...schemas.validation import validate
from ...services.citations import search
from ...services.receipts import corrections
from ...web.auth import current_actor
from . import api, json_body

FILTERS = ("merchant", "date_from", "date_to", "min_amount", "max_amount", "category")


def _query(values: dict, text_key: str) -> search.Query:
    return search.Query(text=values.get(text_key), filters={k: values[k] for k in FILTERS if k in values},
                        citation_format=values.get("citation_format", "long"), today=date.today())  # fmt: skip


@api.get("/search")
def search_documents():
    params = validate(request.args.to_dict(), SEARCH_PARAMS, what="search parameters")
    actor = current_actor()
    actor.require_user()
    found = search.search_documents(actor, _query(params, "q"),
                                    include_citations=params.get("include_citations", "true") in ("true", "1"),
                                    limit=int(params.get("limit", 20)))  # fmt: skip
    return with_urls(found)


@api.post("/mcp/search")
def mcp_search():
    actor = current_actor()
    actor.require_user()
    body = validate(json_body(), MCP_SEARCH_BODY, what="search")
    found = search.search_documents(actor, _query(body, "query"), include_citations=body.get("include_citations", True),
                                    full=body.get("include_full_citations", False), limit=body.get("limit", 20))  # fmt: skip
    return with_urls(found)


@api.get("/mcp/citations/<int:document_id>/<field_name>")
def field_provenance(document_id: int, field_name: str):
    receipt, field, data = search.field_provenance(current_actor(), document_id, field_name)
    return provenance_to_dict(receipt, field, data)


@api.patch("/receipts/<int:receipt_id>/fields/<field_name>")
def correct_field(receipt_id: int, field_name: str):
    actor = _owner_at(receipt_id, field_name)
    body = validate(json_body(), FIELD_CORRECTION_BODY, what="correction")
    receipt = corrections.correct_value(actor, receipt_id, field_name, body["value"], body.get("note", ""))
    return _after_review(actor, receipt, field_name)


@api.post("/receipts/<int:receipt_id>/fields/<field_name>/verify")
def verify_field(receipt_id: int, field_name: str):
    actor = _owner_at(receipt_id, field_name)
    receipt = corrections.verify_value(actor, receipt_id, field_name)
    return _after_review(actor, receipt, field_name)


def _owner_at(receipt_id: int, field_name: str):
    """The signed-in caller (401 first), once the address names a possible field (else 404, never a 500)."""
    actor = current_actor()
    actor.require_user()
    search.check_field_address(receipt_id, field_name)
    return actor


def _after_review(actor, receipt, field_name: str) -> dict:
    _, field, data = search.field_provenance(actor, receipt.id, field_name)
    return {"receipt": receipt_to_dict(receipt), "provenance": provenance_to_dict(receipt, field, data)}
