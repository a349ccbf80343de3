"""The `claude` extraction engine against the real anthropic SDK, its HTTP transport replaced by scripted responses:
what the SDK sends (model, tools, the receipt's file and numbered text) and what the shop keeps of the answers."""

import base64
import io
import json
import sys
from datetime import date
from decimal import Decimal

import httpx2
import pytest
from PIL import Image

from insightshop.services.errors import Unavailable
from insightshop.services.receipts.document import Evidence, ReceiptDocument
from insightshop.services.receipts.extraction import claude_engine
from insightshop.services.receipts.extraction.claude_engine import extract_with_claude
from insightshop.services.receipts.extraction.claude_tools import TOOLS
from tests.anthropic_scripted import install, message, text, tool_use

TODAY = date(2026, 10, 20)
LINES = [
    "KEDAI RUNCIT AMAN",  # [1]
    "No 5, Jalan Bukit Bintang",  # [2]
    "55100 Kuala Lumpur",  # [3]
    "Tarikh: 11/10/2026 18:02",  # [4]
    "2 x Teh Tarik @ 3.50      RM7.00",  # [5]
    "Nasi Lemak                RM9,00",  # [6]
    "SUBTOTAL                  RM16.00",  # [7]
    "SST 6%                    0.96",  # [8]
    "TOTAL                     RM16.96",  # [9]
    "TUNAI                     RM20.00",  # [10]
]
DOCUMENT = ReceiptDocument.from_lines(LINES, source="ocr")
LINE_NUMBERS = {"merchant_name": 1, "merchant_address": 2, "purchase_date": 4, "currency": 9, "subtotal": 7,
                "tax_amount": 8, "total_amount": 9}  # fmt: skip
OVERLOADED = (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, {"retry-after-ms": "1"})  # fmt: skip


def metadata(**changes):
    values = {"merchant_name": "KEDAI RUNCIT AMAN", "merchant_address": "No 5, Jalan Bukit Bintang, 55100 Kuala Lumpur",
              "purchase_date": "2026-10-11", "currency": "MYR", "subtotal": "16.00", "tax_amount": "0.96",
              "total_amount": "16.96", "lines": dict(LINE_NUMBERS), "confidence": 0.9}  # fmt: skip
    return values | changes


def items(*extra):
    listed = [
        {"item_name": "Teh Tarik", "quantity": "2", "unit_price": "3.50", "total_price": "7.00", "line_number": 1, "line": 5},
        {"item_name": "Nasi Lemak", "quantity": None, "unit_price": None, "total_price": "9.00", "line_number": 2, "line": 6},
        *extra,
    ]  # fmt: skip
    return {"items": listed, "confidence": 0.9}


def receipt_data(**changes):
    data = {"merchant_name": "KEDAI RUNCIT AMAN", "purchase_date": "2026-10-11", "total_amount": "16.96",
            "subtotal": "16.00", "tax_amount": "0.96", "items": [{"total_price": "7.00"}, {"total_price": "9.00"}]}  # fmt: skip
    return data | changes


def extraction_round(n, meta=None, listed=None, data=None):
    """One response calling the three tools in the seed's order."""
    return (200, message([tool_use(f"tu_{n}a", "extract_receipt_metadata", meta or metadata()),
                          tool_use(f"tu_{n}b", "extract_line_items", listed or items()),
                          tool_use(f"tu_{n}c", "validate_extraction", {"receipt_data": data or receipt_data()})],
                         "tool_use", f"msg_{n}"))  # fmt: skip


def done(n=9):
    return (200, message([text("Recorded.")], message_id=f"msg_{n}"))


def png(width=600, height=900) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buffer, "PNG")
    return buffer.getvalue()


def results_sent(request) -> dict:
    """The tool results of a request's last message, by tool_use_id, decoded."""
    return {block["tool_use_id"]: json.loads(block["content"]) for block in request["messages"][-1]["content"]}


def span(line_number, needle):
    start = LINES[line_number - 1].index(needle)
    return (Evidence(line_number - 1, start, start + len(needle)),)


def test_happy_path_sends_the_image_and_numbered_lines_and_keeps_values_with_their_evidence(app):
    script = install(app, extraction_round(1), done())
    image = png()

    result = extract_with_claude(DOCUMENT, source=image, content_type="image/png", today=TODAY)

    first = script.requests[0]
    assert first["model"] == "claude-sonnet-5-5" and first["max_tokens"] == claude_engine.MAX_TOKENS
    system = first["system"][0]["text"]
    assert "exactly as printed" in system and "day first or month first" in system and "Never invent" in system
    assert [t["name"] for t in first["tools"]] == [tool["name"] for tool in TOOLS]
    assert [t["name"] for t in TOOLS] == ["extract_receipt_metadata", "extract_line_items", "validate_extraction"]
    assert all(t["strict"] is True and t["input_schema"]["additionalProperties"] is False for t in first["tools"])
    item_schema = first["tools"][1]["input_schema"]["properties"]["items"]["items"]
    assert item_schema["additionalProperties"] is False and "line" in item_schema["required"]
    image_block, text_block = first["messages"][0]["content"]
    assert image_block == {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                       "data": base64.b64encode(image).decode()}}  # fmt: skip
    assert "[4] Tarikh: 11/10/2026 18:02\n" in text_block["text"] and "[9] TOTAL" in text_block["text"]
    assert first["tools"][-1]["cache_control"] == text_block["cache_control"] == {"type": "ephemeral"}
    second = script.requests[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"] and second[0] == first["messages"][0]
    assert results_sent(script.requests[1])["tu_1c"] == {
        "valid": True, "errors": [], "warnings": ["Total amount mismatch: sum(items)=16.00, total=16.96"]}  # fmt: skip
    assert result.engine == "claude-sonnet-5-5"
    assert result.merchant_name.value == LINES[0] and result.merchant_name.evidence == span(1, LINES[0])
    assert result.purchase_date.value == "2026-10-11" and result.purchase_date.evidence == span(4, "11/10/2026")
    assert result.total_amount.value == Decimal("16.96") and result.total_amount.evidence == span(9, "16.96")
    assert result.currency.value == "MYR" and result.currency.evidence == span(9, "RM")
    assert len(result.merchant_address.evidence) == 3  # an address printed over two lines, part by part
    assert result.merchant_name.confidence == 0.9 and result.total_amount.confidence == 0.9
    tea, rice = result.items
    assert (tea.item_name, tea.quantity, tea.unit_price) == ("Teh Tarik", 2, Decimal("3.50"))
    assert tea.total_price == Decimal("7.00")
    assert tea.evidence["total_price"] == span(5, "7.00") and tea.evidence["quantity"] == (Evidence(4, 0, 1),)
    assert rice.total_price == Decimal("9.00") and rice.evidence["total_price"] == span(6, "9,00")  # printed 9,00
    assert [tea.line_number, rice.line_number] == [1, 2] and tea.confidence == 0.9


def test_a_validation_failure_goes_back_and_the_corrected_retry_is_kept(app):
    month_first = metadata(purchase_date="2026-11-10")  # 11/10/2026 read month first: a day still to come
    script = install(app, extraction_round(1, meta=month_first, data=receipt_data(purchase_date="2026-11-10")),
                     (200, message([tool_use("tu_2a", "extract_receipt_metadata", metadata()),
                                    tool_use("tu_2c", "validate_extraction", {"receipt_data": receipt_data()})],
                                   "tool_use", "msg_2")),
                     done())  # fmt: skip

    result = extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    first_results = results_sent(script.requests[1])
    assert "purchase_date 2026-11-10 is in the future; recorded as null" in first_results["tu_1a"]["problems"]
    assert first_results["tu_1c"]["valid"] is False and first_results["tu_1c"]["errors"] == ["Purchase date is missing"]
    assert "Corrections left: 3" in first_results["tu_1c"]["next"]
    assert any("is not the recorded None" in warning for warning in first_results["tu_1c"]["warnings"])
    assert results_sent(script.requests[2])["tu_2c"]["valid"] is True
    assert result.purchase_date.value == "2026-10-11" and result.purchase_date.evidence == span(4, "11/10/2026")
    assert len(script.requests) == 3


def test_after_three_failed_corrections_it_stops_with_the_best_attempt(app):
    no_name = {"merchant_name": None, "lines": LINE_NUMBERS | {"merchant_name": 0}}
    worse = metadata(**no_name, purchase_date=None)  # two errors: no merchant, no date
    better = metadata(**no_name)  # one error: no merchant
    script = install(app, extraction_round(1, meta=worse), extraction_round(2, meta=better),
                     extraction_round(3, meta=worse), extraction_round(4, meta=worse), done())  # fmt: skip

    result = extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert len(script.requests) == 4  # the fourth failed validation ends the loop: no fifth request
    notes = [results_sent(request)[f"tu_{n}c"]["next"] for n, request in enumerate(script.requests[1:], 1)]
    assert [note.rsplit(" ", 1)[-1] for note in notes] == ["3.", "2.", "1."]
    assert result.merchant_name.value is None and result.purchase_date.value == "2026-10-11"  # the better attempt


def test_a_value_not_on_the_receipt_has_no_evidence_and_a_low_confidence(app):
    invented = metadata(merchant_name="Whole Foods Market", total_amount="45.67")
    ghost = {"item_name": "Organic Bananas", "quantity": None, "unit_price": None, "total_price": "3.99",
             "line_number": 3, "line": 7}  # fmt: skip
    script = install(app, extraction_round(1, meta=invented, listed=items(ghost)), done())

    result = extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert result.merchant_name.value == "Whole Foods Market" and result.merchant_name.evidence == ()
    assert result.total_amount.evidence == () and result.total_amount.confidence <= 0.3
    assert result.merchant_name.confidence <= 0.3 and result.subtotal.confidence == 0.9
    assert result.items[2].evidence == {} and result.items[2].confidence <= 0.3
    said = results_sent(script.requests[1])
    assert any(p.startswith("total_amount 45.67 is not in the receipt's text") for p in said["tu_1a"]["problems"])
    assert (
        "item 3: item_name and total_price not in the receipt's text; kept with low confidence"
        in said["tu_1b"]["problems"]
    )


def test_values_the_shop_cannot_trust_become_null(app):
    untrusted = metadata(currency="ringgit", total_amount="RM16.96", subtotal="-16.00", purchase_date="2026-02-30",
                         lines=LINE_NUMBERS | {"tax_amount": 99}, confidence=7)  # fmt: skip
    bad_sum = {"item_name": "Teh Tarik", "quantity": "2", "unit_price": "3.50", "total_price": "9.00", "line_number": 1, "line": 5}  # fmt: skip
    script = install(app, extraction_round(1, meta=untrusted, listed={"items": [bad_sum], "confidence": 0.9}), done())

    result = extract_with_claude(DOCUMENT, source=None, content_type="text/plain", today=TODAY)

    for name in ("currency", "total_amount", "subtotal", "purchase_date"):
        assert getattr(result, name).value is None and getattr(result, name).confidence == 0.1
    # line 99 does not exist: found on another line
    assert result.tax_amount.value == Decimal("0.96") and result.tax_amount.confidence == 0.85
    assert result.merchant_name.confidence == 1.0  # the model's 7 is read as 1.0
    assert result.items[0].confidence == 0.4  # 2 × 3.50 is not 9.00
    problems = results_sent(script.requests[1])["tu_1a"]["problems"]
    assert "currency 'ringgit' is not a three-letter ISO 4217 code; recorded as null" in problems
    assert "tax_amount line 99 does not exist (the text has 10 lines)" in problems
    assert "item 1: 2 × 3.50 is not its total_price 9.00" in results_sent(script.requests[1])["tu_1b"]["problems"]


@pytest.mark.parametrize("status, kind", [(529, "status"), (500, "status"), (429, "rate_limit")])
def test_api_errors_after_the_sdk_retries_raise_unavailable(app, status, kind):
    error = (status, {"type": "error", "error": {"type": "api_error", "message": "Try later"}}, {"retry-after-ms": "1"})
    script = install(app, error, error, error)

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert len(script.requests) == 1 + claude_engine.SDK_RETRIES
    assert raised.value.code == "unavailable" and raised.value.details[0]["kind"] == kind


def test_a_timeout_raises_unavailable(app, monkeypatch):
    monkeypatch.setattr(claude_engine, "SDK_RETRIES", 0)

    def times_out(request):
        raise httpx2.ReadTimeout("slow", request=request)

    app.config.update(ANTHROPIC_API_KEY="sk-ant-test", ANTHROPIC_HTTP_CLIENT=httpx2.Client(transport=httpx2.MockTransport(times_out)))  # fmt: skip

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(DOCUMENT, source=None, content_type="text/plain", today=TODAY)

    assert raised.value.details[0]["kind"] == "timeout"


def test_without_a_key_it_is_unavailable(app):
    app.config["ANTHROPIC_API_KEY"] = None

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(DOCUMENT, today=TODAY)

    assert raised.value.details[0]["kind"] == "not_configured"


def test_no_text_and_no_file_to_send_is_unavailable_without_a_call(app):
    script = install(app)

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(ReceiptDocument(lines=(), source="ocr"), source=b"", content_type="image/png", today=TODAY)

    assert raised.value.details[0]["kind"] == "nothing_to_read" and script.requests == []


def test_an_image_without_text_is_still_read_from_the_image(app):
    script = install(app, extraction_round(1), done())

    result = extract_with_claude(ReceiptDocument(lines=(), source="ocr"), source=png(), content_type="image/png",
                                 today=TODAY)  # fmt: skip

    image_block, text_block = script.requests[0]["messages"][0]["content"]
    assert image_block["type"] == "image" and text_block["text"].startswith("No text could be read")
    assert result.total_amount.value == Decimal("16.96") and result.total_amount.evidence == ()
    assert result.total_amount.confidence == 0.3  # nothing in the text confirms it: flagged for review


def test_max_tokens_before_anything_was_recorded_is_unavailable_and_the_cut_call_never_runs(app):
    cut = tool_use("tu_1a", "extract_receipt_metadata", {"merchant_name": "KEDAI"})
    script = install(app, (200, message([cut], "max_tokens")))

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert raised.value.details[0]["kind"] == "max_tokens" and len(script.requests) == 1


def test_max_tokens_after_recording_keeps_what_was_recorded(app):
    cut = tool_use("tu_2a", "extract_line_items", {"items": []})
    install(app, extraction_round(1), (200, message([cut], "max_tokens", "msg_2")))

    result = extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert result.total_amount.value == Decimal("16.96") and len(result.items) == 2  # the cut call changed nothing


def test_a_refusal_is_unavailable(app):
    install(app, (200, message([], "refusal")))

    with pytest.raises(Unavailable) as raised:
        extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    assert raised.value.details[0]["kind"] == "refusal"


def test_a_pdf_is_sent_as_a_document_block(app):
    pdf = b"%PDF-1.7\n% a receipt\n"
    script = install(app, extraction_round(1), done())

    extract_with_claude(DOCUMENT, source=pdf, content_type="application/pdf", today=TODAY)

    block = script.requests[0]["messages"][0]["content"][0]
    assert block == {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                                     "data": base64.b64encode(pdf).decode()}}  # fmt: skip


def test_a_text_receipt_sends_only_its_numbered_lines(app):
    script = install(app, extraction_round(1), done())

    extract_with_claude(DOCUMENT, source="\n".join(LINES).encode(), content_type="text/plain", today=TODAY)

    (only,) = script.requests[0]["messages"][0]["content"]
    assert only["type"] == "text" and only["text"].startswith("The receipt's text, 10 numbered lines")


def test_an_image_over_the_size_limit_is_scaled_down(app):
    script = install(app, extraction_round(1), done())

    extract_with_claude(DOCUMENT, source=png(9000, 300), content_type="image/png", today=TODAY)

    source = script.requests[0]["messages"][0]["content"][0]["source"]
    sent = Image.open(io.BytesIO(base64.b64decode(source["data"])))
    assert source["media_type"] == "image/jpeg" and sent.size == (8000, 267)


def test_without_pillow_an_image_over_the_limit_is_not_sent(app, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now fails
    script = install(app, extraction_round(1), done())

    extract_with_claude(DOCUMENT, source=b"\xff\xd8\xff" + bytes(6_000_000), content_type="image/jpeg", today=TODAY)

    assert [block["type"] for block in script.requests[0]["messages"][0]["content"]] == ["text"]


def test_an_unknown_tool_gets_an_error_result(app):
    unknown = (200, message([tool_use("tu_1", "delete_receipt", {})], "tool_use"))
    script = install(app, unknown, extraction_round(2), done())

    extract_with_claude(DOCUMENT, source=png(), content_type="image/png", today=TODAY)

    result = script.requests[1]["messages"][-1]["content"][0]
    assert result["is_error"] is True and "no tool 'delete_receipt'" in result["content"]
