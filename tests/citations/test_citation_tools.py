"""The citation tools (search_documents, get_field_provenance, aggregate_with_citations) through run_tool,
POST /api/tools/<name> and the MCP server; aggregates add exactly the values they cite."""

from datetime import date
from decimal import Decimal

import anyio
import httpx2
import pytest
from jsonschema import Draft202012Validator
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from insightshop.extensions import db
from insightshop.mcp.server import asgi_app
from insightshop.mcp.tools_registry import get_tool_definition
from insightshop.schemas.citations import AGGREGATION_SCHEMA, PROVENANCE_SCHEMA, SEARCH_RESPONSE_SCHEMA
from insightshop.services import api_tokens
from insightshop.services.citations import search
from insightshop.utils.agent_executor import run_tool
from tests.api.test_products_api import assert_error
from tests.citations.conftest import upload
from tests.mcp.test_mcp_server import LiveASGI

OUTPUTS = {"search_documents": SEARCH_RESPONSE_SCHEMA, "get_field_provenance": PROVENANCE_SCHEMA,
           "aggregate_with_citations": AGGREGATION_SCHEMA}  # fmt: skip
EURO_RECEIPT = """CAFE LUMIERE
Date: 2026-10-20
Croissant                 3.40
Cafe creme                4.10
TOTAL EUR                 7.50
"""


def ok(name: str, arguments: dict, actor) -> dict:
    result = run_tool(name, arguments, actor)
    assert result["ok"], result
    assert not list(Draft202012Validator(get_tool_definition(name)["output_schema"]).iter_errors(result["data"]))
    return result["data"]


def test_the_tools_output_schemas_are_the_apis_and_strict_inputs():
    for name, schema in OUTPUTS.items():
        definition = get_tool_definition(name)
        assert definition["output_schema"] == schema
        assert definition["input_schema"]["additionalProperties"] is False
        assert definition["annotations"]["readOnlyHint"] is True and definition["permission"] == "user"
        assert "ALWAYS" in definition["description"]
    provenance = get_tool_definition("get_field_provenance")["input_schema"]["properties"]
    assert provenance["document_id"]["maximum"] == 2147483647


def test_aggregate_sum_is_the_sum_of_the_cited_values_and_each_is_printed_in_its_source(library):
    for field in ("total_amount", "subtotal", "tax_amount", "item_total_price"):
        data = ok("aggregate_with_citations", {"operation": "sum", "field": field}, library.actor)

        cited = [Decimal(source["value"]) for source in data["sources"]]
        assert Decimal(data["aggregation"]["result"]) == sum(cited), field
        assert data["aggregation"]["count"] == len(cited) > 0
        for source in data["sources"]:
            assert source["value"] in source["source_text"], (field, source)
            assert source["citation"] in " ".join(data["llm_summary"]["citations"])
    totals = ok("aggregate_with_citations", {"operation": "sum"}, library.actor)
    assert totals["aggregation"]["result"] == "144.43"
    assert totals["llm_summary"]["answer"] == "Sum of the receipt totals over 2 receipts: 144.43 USD."


def test_avg_min_max_and_count(library):
    def result(operation):
        return ok("aggregate_with_citations", {"operation": operation}, library.actor)["aggregation"]["result"]

    assert (result("avg"), result("min"), result("max"), result("count")) == ("72.22", "14.83", "129.60", 2)


def test_different_currencies_are_never_added(client, library):
    upload(client, library.headers, EURO_RECEIPT, "cafe.txt")

    data = ok("aggregate_with_citations", {"operation": "sum"}, library.actor)

    assert data["aggregation"]["result"] is None and data["aggregation"]["currency"] is None
    assert data["aggregation"]["by_currency"] == [{"currency": "EUR", "count": 1, "result": "7.50"},
                                                  {"currency": "USD", "count": 2, "result": "144.43"}]  # fmt: skip
    assert "never added together" in data["llm_summary"]["answer"]


def test_the_words_of_a_query_become_filters(library):
    query = search.Query(text="receipts over $10 in October", today=date(2026, 11, 20), citation_format="short")

    found = search.search_documents(library.actor, query)

    assert [r["document_id"] for r in found["results"]] == [library.upload.id]
    assert found["filters"] == {"date_from": "2026-10-01", "date_to": "2026-10-31", "min_amount": 10.01}
    assert found["llm_context"]["query_interpretation"] == (
        "Searching your receipts dated 2026-10-01 to 2026-10-31, with a total of at least 10.01"
    )
    explicit = search.Query(text="receipts over $10 in October", today=date(2026, 11, 20), filters={"min_amount": 100})
    assert search.search_documents(library.actor, explicit)["results"] == []


def test_confidence_note_counts_verified_and_low_confidence_totals(client, library):
    client.post(f"/api/receipts/{library.upload.id}/fields/total_amount/verify", headers=library.headers)

    found = ok("search_documents", {"query": "my receipts"}, library.actor)

    assert found["llm_context"]["confidence_note"] == "1 of 2 totals verified; 1 from the shop's own order records"
    assert found["mcp_context"]["all_verified"] is False


def test_provenance_tool_and_refusals(library):
    data = ok("get_field_provenance", {"document_id": library.upload.id, "field_name": "items.3.total_price",
                                       "citation_format": "academic"}, library.actor)  # fmt: skip

    assert data["value"] == "5.25" and "5.25" in data["full_citation"]["source"]["text"]
    assert data["source_location_url"] == f"/receipts/{library.upload.id}?field=items.3.total_price&page=1"
    missing = run_tool("get_field_provenance", {"document_id": library.upload.id, "field_name": "items.9.total_price"},
                       library.actor)  # fmt: skip
    huge = run_tool("get_field_provenance", {"document_id": 2**31, "field_name": "total_amount"}, library.actor)
    bad_format = run_tool("search_documents", {"citation_format": "mla"}, library.actor)
    assert missing["error"]["code"] == "not_found"
    assert huge["error"]["code"] == "invalid_arguments" and bad_format["error"]["code"] == "invalid_arguments"


def test_the_tools_over_the_json_api(client, library):
    found = client.post("/api/tools/search_documents", headers=library.headers,
                        json={"query": "receipts over $100", "citation_format": "short"})  # fmt: skip
    refused = client.post("/api/tools/aggregate_with_citations", headers=library.headers, json={"operation": "median"})
    anonymous = client.post("/api/tools/search_documents", json={"query": "receipts"})

    results = found.get_json()["data"]["results"]
    assert [r["citations"]["total_amount"]["citation_string"] for r in results] == [
        "[insightshop-order-1.txt, line 15]"
    ]
    assert_error(refused, 400, "validation_error")
    assert anonymous.status_code == 401


@pytest.mark.commits
def test_the_tools_on_the_mcp_server(app, library):
    token, _ = api_tokens.issue_token(library.user)
    receipt_id = library.upload.id

    with LiveASGI(asgi_app(app)) as live:

        async def main():
            with anyio.fail_after(30):
                async with (
                    httpx2.AsyncClient(
                        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(20.0)
                    ) as http,
                    streamable_http_client(f"http://127.0.0.1:{live.port}/mcp", http_client=http) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                    found = await session.call_tool("search_documents", {"query": "receipts over $100"})
                    cited = await session.call_tool("get_field_provenance", {"document_id": receipt_id,
                                                                             "field_name": "total_amount"})  # fmt: skip
                    summed = await session.call_tool("aggregate_with_citations", {"operation": "sum"})
                    bad = await session.call_tool("get_field_provenance", {"document_id": receipt_id,
                                                                           "field_name": "../etc"})  # fmt: skip
                    return tools, found, cited, summed, bad

        tools, found, cited, summed, bad = anyio.run(main)

    assert {"search_documents", "get_field_provenance", "aggregate_with_citations"} <= set(tools)
    assert tools["search_documents"].annotations.read_only_hint is True
    assert found.structured_content["results"][0]["citations"]["total_amount"]["value"] == "129.60"
    assert cited.structured_content["full_citation"]["source"]["text"] == "TOTAL USD               14.83"
    assert summed.structured_content["aggregation"]["result"] == "144.43"
    assert bad.is_error and "Invalid input" in bad.content[0].text
    db.session.expire_all()
