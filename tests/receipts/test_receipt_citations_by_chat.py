"""Receipt answers quote their citations (offline engine): each total with its "[file, line N]", unverified and
low-confidence values said so, and the panel links each cited value to the receipt page that highlights it."""

from datetime import UTC, datetime
from decimal import Decimal

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.services.actors import Actor
from tests.factories import bearer, csrf_token, make_paid_order, make_product, make_user
from tests.receipts.citation_helpers import cited_receipt

ASK_TOTAL = "how much did I spend in total on my receipts?"


def test_the_total_is_summed_and_each_value_quotes_its_citation_and_how_far_to_trust_it(app):
    shopper = make_user()
    unsure = cited_receipt(shopper)
    checked = cited_receipt(shopper, filename="corner.txt", merchant="Corner Cafe", total="7.50", confidence=0.95,
                            verified=True)  # fmt: skip
    checked.fields[1].verified_at = datetime(2025, 10, 6, tzinfo=UTC)
    db.session.commit()

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    [call] = turn["tool_calls"]
    cited = {r["id"]: r["total_citation"] for r in call["result"]["receipts"]}
    assert cited[unsure.id] == {"short": "[receipt-12.jpg, line 9]", "long": 'receipt-12.jpg, line 9: "TOTAL 45.67"',
                                "verified": False, "confidence": 0.62, "method": "ocr_rules",
                                "url": f"/receipts/{unsure.id}?field=total_amount"}  # fmt: skip
    assert cited[checked.id]["verified"] is True
    reply = turn["reply"]
    assert "You spent $53.17 on 2 receipts." in reply
    assert "$45.67 at Whole Foods on 2025-10-03 [receipt-12.jpg, line 9] (unverified, 62% confidence)" in reply
    assert "$7.50 at Corner Cafe on 2025-10-03 [corner.txt, line 9]" in reply
    assert "[corner.txt, line 9] (" not in reply and reply.endswith("1 of these totals is verified.")
    assert reply.count("verified") - reply.count("unverified") == 1  # verified values are said so once


def test_an_order_receipt_is_cited_from_the_shops_own_record(app):
    shopper = make_user()
    order = make_paid_order(Actor(user=shopper), make_product(name="Linen Shirt", price=Decimal("30.00")))

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    total = f"${order.total:.2f}"
    assert f"You spent {total} on 1 receipt." in turn["reply"]
    assert f"{total} from your InsightShop order" in turn["reply"]
    assert f"[insightshop-order-{order.id}.txt, line " in turn["reply"] and "unverified" not in turn["reply"]


def test_the_turn_carries_a_citations_card_built_from_the_tool_result(app):
    shopper = make_user()
    receipt = cited_receipt(shopper)

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    assert {"type": "citations", "links": [{"text": "[receipt-12.jpg, line 9]",
                                            "url": f"/receipts/{receipt.id}?field=total_amount"}]} in turn["cards"]  # fmt: skip


def test_another_shoppers_receipts_never_appear(app):
    shopper, other = make_user(), make_user("other@example.com")
    cited_receipt(shopper)
    cited_receipt(other, filename="secret-99.jpg", merchant="Secret Store", total="999.00")

    turn = chat.chat_turn(Actor(user=shopper), ASK_TOTAL)

    assert "secret-99.jpg" not in str(turn) and "Secret Store" not in str(turn) and "999" not in turn["reply"]


def test_the_panel_links_each_cited_value_to_its_receipt_page(app, client):
    shopper = make_user()
    receipt = cited_receipt(shopper)
    _log_in(client, shopper)

    page = _ask(client, ASK_TOTAL)

    assert f'<a class="chat-cite" href="/receipts/{receipt.id}?field=total_amount">[receipt-12.jpg, line 9]</a>' in page
    assert "(unverified, 62% confidence)" in page


def test_receipt_text_is_escaped_and_never_becomes_markup(app, client):
    shopper = make_user()
    receipt = cited_receipt(shopper, filename='<img src=x onerror="alert(1)">.jpg', merchant="<b>Evil</b> & Co")
    _log_in(client, shopper)

    page = _ask(client, ASK_TOTAL)

    assert "<img src=x" not in page and "<b>Evil</b>" not in page
    assert "&lt;b&gt;Evil&lt;/b&gt; &amp; Co" in page
    assert (
        f'href="/receipts/{receipt.id}?field=total_amount">[&lt;img src=x onerror=&#34;alert(1)&#34;&gt;.jpg, line 9]</a>'
        in page
    )


def _log_in(client, user):
    """Logged in through the login form, as a shopper is."""
    client.post("/login", data={"email": user.email, "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip


def _ask(client, message: str) -> str:
    response = client.post("/chat/message", data={"message": message, "csrf_token": csrf_token(client)},
                           headers={"HX-Request": "true"})  # fmt: skip
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_api_reply_is_plain_text_with_the_citations(app, client):
    shopper = make_user()
    receipt = cited_receipt(shopper)

    turn = client.post("/api/ai/chat", headers=bearer(client), json={"message": ASK_TOTAL}).get_json()

    assert "$45.67 at Whole Foods on 2025-10-03 [receipt-12.jpg, line 9] (unverified, 62% confidence)" in turn["reply"]
    assert "<a" not in turn["reply"]
    assert {"type": "citations", "links": [{"text": "[receipt-12.jpg, line 9]",
                                            "url": f"/receipts/{receipt.id}?field=total_amount"}]} in turn["cards"]  # fmt: skip
