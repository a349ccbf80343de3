"""The citation operations of the OpenAPI document (merged into its paths and components by schemas.openapi)."""

from __future__ import annotations

from .citations import (
    AGGREGATION_SCHEMA,
    CITATION_SCHEMA,
    FIELD_CITATION_SCHEMA,
    FIELD_CORRECTION_BODY,
    FIELD_NAME_SCHEMA,
    MCP_CONTEXT_SCHEMA,
    MCP_SEARCH_BODY,
    PROVENANCE_SCHEMA,
    SEARCH_PARAMS,
    SEARCH_RESPONSE_SCHEMA,
    SEARCH_RESULT_SCHEMA,
)  # fmt: skip

ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
ERRORS = {400: "Invalid input", 401: "Not signed in", 404: "Not found (or another user's receipt)",
          409: "The receipt is still being read", 413: "Body too large", 415: "Body is not JSON",
          503: "The database is unreachable; retry after Retry-After seconds"}  # fmt: skip
ID = {"name": "document_id", "in": "path", "required": True,
      "schema": {"type": "integer", "minimum": 1, "maximum": 2147483647}}  # fmt: skip
FIELD = {"name": "field_name", "in": "path", "required": True, "schema": FIELD_NAME_SCHEMA,
         "description": "total_amount, subtotal, tax_amount, merchant_name, merchant_address, purchase_date, "
                        "currency, or items.<n>.item_name|quantity|unit_price|total_price"}  # fmt: skip


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(operation_id: str, summary: str, ok: str, *errors: int, body: str | None = None, params=()) -> dict:
    operation = {
        "operationId": operation_id,
        "summary": summary,
        "tags": ["citations"],
        "security": [{"bearer": []}],
        "responses": {
            "200": {"description": "Success", "content": {"application/json": {"schema": _ref(ok)}}},
            # The request guard can always answer 400, an unreachable database 503; a body can be too large (413)
            # or not JSON (415).
            **{
                str(status): {"description": ERRORS[status], **ERROR}
                for status in sorted({400, 401, 503, *errors} | ({413, 415} if body else set()))
            },  # fmt: skip
        },
    }
    if params:
        operation["parameters"] = list(params)
    if body:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": _ref(body)}}}
    return operation


SEARCH_QUERY = [
    {"name": name, "in": "query", "required": False, "schema": schema}
    for name, schema in SEARCH_PARAMS["properties"].items()
]
RECEIPT_ID = {**ID, "name": "receipt_id"}

CITATION_PATHS = {
    "/api/search": {
        "get": _operation(
            "searchDocuments",
            'The caller\'s receipts matching q ("receipts over $100 in October") and '
            "filters, each value with its citation (include_citations, citation_format short|long|academic)",
            "SearchResponse",
            400,
            401,
            params=SEARCH_QUERY,
        )  # fmt: skip
    },
    "/api/mcp/search": {
        "post": _operation(
            "mcpSearch",
            "The same search for AI agents, as a JSON body (include_full_citations adds the "
            "whole citation object per value)",
            "SearchResponse",
            400,
            401,
            415,
            body="McpSearchRequest",
        )  # fmt: skip
    },
    "/api/mcp/citations/{document_id}/{field_name}": {
        "get": _operation(
            "fieldProvenance",
            "One value's full citation, extraction history, file URL and source location",
            "Provenance",
            401,
            404,
            params=(ID, FIELD),
        )  # fmt: skip
    },
    "/api/receipts/{receipt_id}/fields/{field_name}": {
        "patch": _operation(
            "correctReceiptField",
            "Correct a value by hand (kept in the history; it has no source text)",
            "FieldReview",
            400,
            401,
            404,
            409,
            415,
            body="FieldCorrection",
            params=(RECEIPT_ID, FIELD),
        )  # fmt: skip
    },
    "/api/receipts/{receipt_id}/fields/{field_name}/verify": {
        "post": _operation(
            "verifyReceiptField",
            "Confirm a value as read (who and when are recorded)",
            "FieldReview",
            400,
            401,
            404,
            409,
            params=(RECEIPT_ID, FIELD),
        )  # fmt: skip
    },
}

CITATION_COMPONENTS = {
    "Citation": CITATION_SCHEMA,
    "FieldCitation": FIELD_CITATION_SCHEMA,
    "McpContext": MCP_CONTEXT_SCHEMA,
    "SearchResult": SEARCH_RESULT_SCHEMA,
    "SearchResponse": SEARCH_RESPONSE_SCHEMA,
    "Provenance": PROVENANCE_SCHEMA,
    "Aggregation": AGGREGATION_SCHEMA,
    "McpSearchRequest": MCP_SEARCH_BODY,
    "FieldCorrection": FIELD_CORRECTION_BODY,
    "FieldReview": {
        "type": "object",
        "required": ["receipt", "provenance"],
        "properties": {"receipt": {"type": "object"}, "provenance": PROVENANCE_SCHEMA},
    },
}
