"""Claude cites receipt lines: receipt tool results go with the receipts' text as custom-content documents
(citations enabled, one content block per line), and a content_block_location citation in the answer becomes a
link to the right receipt and field. The real anthropic SDK runs; only its HTTP layer is scripted."""

from insightshop.agent import chat
from insightshop.services.actors import Actor
from tests.anthropic_scripted import install, message, text, tool_use
from tests.factories import make_user
from tests.receipts.citation_helpers import cited_receipt

ASK_TOTAL = "how much did I spend in total on my receipts?"


def cited(value: str, document_index: int, start: int, cited_text: str, title: str = "receipt-12.jpg") -> dict:
    """A text block citing content blocks [start, start + 1) of a document, as the API returns it."""
    return {"type": "text", "text": value, "citations": [
        {"type": "content_block_location", "cited_text": cited_text, "document_index": document_index,
         "document_title": title, "start_block_index": start, "end_block_index": start + 1}]}  # fmt: skip


def test_the_request_carries_each_receipts_lines_as_a_citable_document(app):
    shopper = make_user()
    receipt = cited_receipt(shopper)
    other = cited_receipt(make_user("other@example.com"), filename="secret-99.jpg", merchant="Secret Store")
    script = install(app, (200, message([tool_use("tu_1", "receipts_list", {})], "tool_use")),
                     (200, message([text("You spent $45.67.")], message_id="msg_2")))  # fmt: skip

    chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    [result] = script.requests[1]["messages"][-1]["content"]
    assert result["type"] == "tool_result" and result["content"][0]["type"] == "text"
    [document] = result["content"][1:]
    lines = [b.text for b in receipt.blocks if b.text.strip()]  # a blank line is not a content block
    assert document == {"type": "document", "title": "receipt-12.jpg", "context": f"receipt {receipt.id}",
                        "citations": {"enabled": True},
                        "source": {"type": "content", "content": [{"type": "text", "text": line} for line in lines]}}  # fmt: skip
    assert "secret-99.jpg" not in str(script.requests) and f'receipt {other.id}"' not in str(script.requests)
    assert "cite the receipt documents" in script.requests[0]["system"][0]["text"]


def test_a_cited_answer_links_the_value_to_its_receipt_and_field(app):
    shopper = make_user()
    first = cited_receipt(shopper)
    second = cited_receipt(shopper, filename="corner.txt", merchant="Corner Cafe", total="7.50", confidence=0.95)
    # Content block 7 is line 9 ("TOTAL …"): the blank line 4 is not sent, so the indices skip it.
    script = install(app, (200, message([tool_use("tu_1", "receipts_list", {})], "tool_use")),
                     (200, message([text("You spent $53.17 in total: "),
                                    cited("$45.67 at Whole Foods", 1, 7, "TOTAL 45.67"), text(" and "),
                                    cited("$7.50 at Corner Cafe", 0, 7, "TOTAL 7.50", "corner.txt"), text(".")],
                                   message_id="msg_2")))  # fmt: skip

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    documents = [b for b in script.requests[1]["messages"][-1]["content"][0]["content"] if b["type"] == "document"]
    assert [d["title"] for d in documents] == ["corner.txt", "receipt-12.jpg"]  # newest purchase first, same day: id
    assert turn["reply"] == ("You spent $53.17 in total: $45.67 at Whole Foods [receipt-12.jpg, line 9] "
                             "(unverified, 62% confidence) and $7.50 at Corner Cafe [corner.txt, line 9] "
                             "(unverified, 95% confidence).")  # fmt: skip
    assert turn["cards"][0] == {"type": "citations", "links": [
        {"text": "[receipt-12.jpg, line 9]", "url": f"/receipts/{first.id}?field=total_amount"},
        {"text": "[corner.txt, line 9]", "url": f"/receipts/{second.id}?field=total_amount"}]}  # fmt: skip


def test_a_cited_line_that_is_another_fields_source_links_to_that_field(app):
    shopper = make_user()
    receipt = cited_receipt(shopper)
    install(app, (200, message([tool_use("tu_1", "receipt_get", {"receipt_id": receipt.id})], "tool_use")),
            (200, message([cited("It was Whole Foods.", 0, 0, "WHOLE FOODS")], message_id="msg_2")))  # fmt: skip

    turn = chat.chat_turn(Actor(user=shopper), "which shop is my last receipt from?")

    assert turn["cards"][0]["links"] == [{"text": "[receipt-12.jpg, line 1]",
                                          "url": f"/receipts/{receipt.id}?field=merchant_name"}]  # fmt: skip
    assert turn["reply"].startswith("It was Whole Foods. [receipt-12.jpg, line 1]")


def test_a_citation_that_does_not_match_a_sent_document_links_nothing(app):
    shopper = make_user()
    cited_receipt(shopper)
    install(app, (200, message([tool_use("tu_1", "receipts_list", {})], "tool_use")),
            (200, message([cited("$999 at Elsewhere", 0, 7, "TOTAL 999.00", "forged.jpg")], message_id="msg_2")))  # fmt: skip

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    assert turn["reply"] == "$999 at Elsewhere"
    assert not [c for c in turn["cards"] if c["type"] == "citations" and "999" in str(c)]
