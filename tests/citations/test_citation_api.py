"""Seed 004's citation API: /api/search, /api/mcp/search, /api/mcp/citations/<id>/<field>, field corrections."""

import re

from jsonschema import Draft202012Validator

from tests.api.test_products_api import assert_error
from tests.factories import bearer, make_user

MONEY_FIELDS = ("subtotal", "tax_amount", "total_amount")


def valid_against(client, component: str, body: dict) -> list:
    document = client.get("/api/openapi.json").get_json()
    schema = {**document["components"]["schemas"][component], "components": document["components"]}
    return [error.message for error in Draft202012Validator(schema).iter_errors(body)]


def test_seed_test_1_an_mcp_client_searches_and_gets_citation_strings(client, library):
    response = client.post("/api/mcp/search", headers=library.headers,
                           json={"query": "receipts over $100", "include_full_citations": True})  # fmt: skip

    body = response.get_json()
    assert response.status_code == 200
    assert [r["document_id"] for r in body["results"]] == [library.order_receipt.id]
    assert "citations" in body["results"][0]
    citation = body["results"][0]["citations"]["total_amount"]
    assert citation["value"] == "129.60" and "129.60" in citation["citation_string"]
    assert citation["full_citation"]["citation"]["long"] == citation["citation_string"]
    assert body["mcp_context"]["query"] == "receipts over $100"
    assert body["mcp_context"]["all_verified"] is False
    assert "1 result" in body["mcp_context"]["confidence_summary"]
    assert body["llm_context"]["query_interpretation"] == "Searching your receipts with a total of at least 100.01"
    assert citation["citation_string"] in body["llm_context"]["suggested_answer"]
    assert valid_against(client, "SearchResponse", body) == []


def test_seed_test_2_every_citation_has_source_text_page_and_confidence(client, library):
    body = client.get("/api/search?include_citations=true", headers=library.headers).get_json()

    assert {r["kind"] for r in body["results"]} == {"order_receipt", "upload"}
    for result in body["results"]:
        assert set(result["citations"]) >= {"merchant_name", "purchase_date", *MONEY_FIELDS}
        for citation in result["citations"].values():
            assert citation["source_text"], citation
            assert citation["page"] == 1 and citation["line"] >= 1
            assert citation["confidence"] > 0


def test_seed_test_3_the_three_citation_formats(client, library):
    receipt = library.upload
    search = "/api/search?merchant=corner&citation_format="
    short = client.get(search + "short", headers=library.headers).get_json()["results"][0]["citations"]["total_amount"]
    long = client.get(search + "long", headers=library.headers).get_json()["results"][0]["citations"]["total_amount"]
    verified = client.post(f"/api/receipts/{receipt.id}/fields/total_amount/verify", headers=library.headers)
    academic = client.get(search + "academic", headers=library.headers).get_json()["results"][0]

    assert short["citation_string"] == f"[corner-market.txt, line {short['line']}]"
    assert long["citation_string"] == f'corner-market.txt, line {long["line"]}: "TOTAL USD               14.83"'
    assert verified.status_code == 200
    when = re.escape(f"verified {receipt.fields[0].created_at:%b} ")
    assert re.search(when + r"\d{1,2} \d{4}\)$", academic["citations"]["total_amount"]["citation_string"])
    assert re.search(r"\(line 7, unverified, \d+% confidence\)$", academic["citations"]["subtotal"]["citation_string"])


def test_every_cited_money_value_is_printed_in_its_source_text(client, library):
    body = client.get("/api/search", headers=library.headers).get_json()
    for result in body["results"]:
        for name in MONEY_FIELDS:
            citation = result["citations"][name]
            assert citation["value"] in citation["source_text"], (result["filename"], name, citation)
            assert citation["value"] in result["citations"][name]["citation_string"] or citation["line"]


def test_provenance_has_the_full_citation_history_and_source_urls(client, library):
    upload, order = library.upload, library.order_receipt

    response = client.get(f"/api/mcp/citations/{upload.id}/total_amount", headers=library.headers)
    shop = client.get(f"/api/mcp/citations/{order.id}/items.1.total_price", headers=library.headers).get_json()

    body = response.get_json()
    assert response.status_code == 200 and body["value"] == "14.83"
    assert body["full_citation"]["source"]["text"] == "TOTAL USD               14.83"
    assert body["full_citation"]["source"]["context"]["before"].endswith("TAX                      1.10\n")
    assert [(h["method"], h["value"]) for h in body["extraction_history"]] == [("ocr_rules", "14.83")]
    assert body["source_document_url"] == f"/api/receipts/{upload.id}/file"
    line = body["full_citation"]["source"]["line"]
    assert body["source_location_url"] == f"/receipts/{upload.id}?field=total_amount&page=1" and line == 9
    assert body["mcp_context"]["confidence_summary"] == "ocr_rules, 90% confidence, not verified"
    assert shop["value"] == "120.00" and shop["source_document_url"] is None
    assert "120.00" in shop["full_citation"]["source"]["text"]
    assert valid_against(client, "Provenance", body) == []


def test_a_correction_and_a_verification_are_in_the_history_with_the_owner(client, library):
    receipt_id = library.upload.id
    path = f"/api/receipts/{receipt_id}/fields/tax_amount"

    corrected = client.patch(path, headers=library.headers, json={"value": "1.20", "note": "Faded print"})
    verified = client.post(path + "/verify", headers=library.headers)

    assert corrected.status_code == 200 and corrected.get_json()["receipt"]["tax_amount"] == "1.20"
    provenance = verified.get_json()["provenance"]
    assert [(h["method"], h["value"], h["actor"]) for h in provenance["extraction_history"]] == [
        ("ocr_rules", "1.10", None), ("manual", "1.20", "shopper@example.com"),
        ("verification", "1.20", "shopper@example.com")]  # fmt: skip
    assert provenance["extraction_history"][1]["note"] == "Faded print"
    assert provenance["full_citation"]["citation"]["short"] == "[corner-market.txt, entered by hand]"
    assert provenance["full_citation"]["extraction"]["verified_by"] == "shopper@example.com"
    assert provenance["source_location_url"] == f"/receipts/{receipt_id}?field=tax_amount"
    assert valid_against(client, "FieldReview", verified.get_json()) == []


def test_another_users_provenance_and_fields_are_404(client, library):
    make_user("other@example.com")
    other = bearer(client, "other@example.com")
    receipt_id = library.upload.id

    assert_error(client.get(f"/api/mcp/citations/{receipt_id}/total_amount", headers=other), 404, "not_found")
    assert_error(client.patch(f"/api/receipts/{receipt_id}/fields/total_amount", headers=other, json={"value": "1"}),
                 404, "not_found")  # fmt: skip
    assert_error(client.post(f"/api/receipts/{receipt_id}/fields/total_amount/verify", headers=other), 404,
                 "not_found")  # fmt: skip
    assert client.get("/api/search", headers=other).get_json()["results"] == []
    assert library.upload.fields[0].verified is False


def test_bad_addresses_and_parameters_are_4xx_with_the_envelope(client, library):
    headers, receipt_id = library.headers, library.upload.id

    for path in (f"/api/mcp/citations/{receipt_id}/total", f"/api/mcp/citations/{receipt_id}/items.99.total_price",
                 f"/api/mcp/citations/{receipt_id}/items.0.total_price", "/api/mcp/citations/99999999999999/total_amount",
                 f"/api/mcp/citations/{receipt_id}/__class__"):  # fmt: skip
        assert_error(client.get(path, headers=headers), 404, "not_found")
    assert_error(client.patch("/api/receipts/99999999999999/fields/total_amount", headers=headers, json={"value": "1"}),
                 404, "not_found")  # fmt: skip
    assert_error(client.get("/api/search?citation_format=mla", headers=headers), 400, "validation_error")
    assert_error(client.get("/api/search?min_amount=lots", headers=headers), 400, "validation_error")
    assert_error(client.get("/api/search?sneaky=1", headers=headers), 400, "validation_error")
    assert_error(client.post("/api/mcp/search", headers=headers, json={"query": "x", "citation_format": "apa"}), 400,
                 "validation_error")  # fmt: skip
    assert_error(client.post("/api/mcp/search", headers=headers, json={}), 400, "validation_error")
    assert_error(client.patch(f"/api/receipts/{receipt_id}/fields/total_amount", headers=headers, json={"value": "x"}),
                 400, "validation_error")  # fmt: skip


def test_only_signed_in_users(client, library):
    from tests.factories import guest_bearer

    for headers in ({}, guest_bearer(client)):
        assert_error(client.get("/api/search", headers=headers), 401, "unauthorized")
        assert_error(client.post("/api/mcp/search", headers=headers, json={"query": "x"}), 401, "unauthorized")
        assert_error(client.get(f"/api/mcp/citations/{library.upload.id}/total_amount", headers=headers), 401,
                     "unauthorized")  # fmt: skip


def test_the_citation_operations_are_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]

    assert paths["/api/search"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SearchResponse"}  # fmt: skip
    assert set(paths["/api/mcp/citations/{document_id}/{field_name}"]["get"]["responses"]) == {
        "200",
        "400",
        "401",
        "404",
        "503",
    }
    assert "patch" in paths["/api/receipts/{receipt_id}/fields/{field_name}"]
    assert "post" in paths["/api/receipts/{receipt_id}/fields/{field_name}/verify"]
    assert "post" in paths["/api/mcp/search"]
