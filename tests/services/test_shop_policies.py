"""Shop knowledge: answers quote the checkout's configuration, tolerate phrasing, and stay silent off topic."""

import re

import pytest

from insightshop.services import shop_policies, size_guide
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool


def topics(query: str, context: str | None = None) -> list[str]:
    return [answer["topic"] for answer in shop_policies.search(query, context)]


def first_answer(query: str, context: str | None = None) -> str:
    return shop_policies.search(query, context)[0]["answer"]


def test_the_shipping_answer_quotes_the_configured_rates_and_follows_a_change(app):
    app.config.update(SHIPPING_STANDARD="4.50", SHIPPING_EXPRESS="12.00", FREE_SHIPPING_FROM="60")
    before = first_answer("how much is delivery")
    app.config.update(FREE_SHIPPING_FROM="99.5")
    after = first_answer("how much is delivery")

    assert "$4.50" in before and "$12.00" in before and "$60.00" in before
    assert "$99.50" in after and "$60.00" not in after


def test_the_free_shipping_threshold_answered_is_the_one_the_checkout_applies(app):
    from decimal import Decimal

    from insightshop.services import pricing

    app.config.update(FREE_SHIPPING_FROM="80.00", SHIPPING_STANDARD="5.95")
    threshold = shop_policies.shipping_rates()["free_from"]

    assert f"${threshold:,.2f}" in first_answer("is there free shipping?")
    assert pricing.shipping_cost("standard", threshold) == Decimal("0.00")
    assert pricing.shipping_cost("standard", threshold - Decimal("0.01")) == Decimal("5.95")


def test_the_returns_answer_quotes_the_return_window(app):
    app.config.update(RETURN_WINDOW_DAYS=14)
    assert "14 days" in first_answer("can I send it back?")
    app.config.update(RETURN_WINDOW_DAYS=45)
    assert "45 days" in first_answer("what's your refund policy")


@pytest.mark.parametrize(
    ("query", "topic"),
    [
        ("how much is delivery", "shipping"),
        ("Shiping cost?", "shipping"),
        ("how long does shipping take", "shipping"),
        ("when will my parcel arrive if I order today", "shipping"),
        ("can I send it back", "returns"),
        ("retrun policy", "returns"),
        ("I changed my mind, how do I get my money back?", "returns"),
        ("can I exchange it for a bigger size", "returns"),
        ("what size am I", "sizes"),
        ("do you have a size chart", "sizes"),
        ("do your jeans run small?", "sizes"),
        ("do you take paypal", "payments"),
        ("which credit cards do you accept", "payments"),
        ("where is my order", "orders"),
        ("how do I track my package", "orders"),
        ("I forgot my password", "account"),
        ("how can I talk to a human", "contact"),
        ("what's your customer service email", "contact"),
    ],
)
def test_phrasings_find_their_topic_first(app, query, topic):
    assert topics(query)[:1] == [topic]


@pytest.mark.parametrize(
    "query",
    [
        "what's the weather like tomorrow",
        "write me a poem",
        "tell me a joke",
        "who won the game last night",
        "show me red dresses under 50 dollars",
        "add 2 large white shirts to my cart",
        "order them cheapest first",
        "mark order 3 as shipped",
        "the second one in medium",
        "log me out",
    ],
)
def test_questions_not_about_the_shop_get_no_answers(app, query):
    assert shop_policies.search(query) == []


def test_payment_methods_follow_the_configured_provider(app):
    app.config.update(STRIPE_SECRET_KEY=None)
    offline = first_answer("do you take paypal")
    app.config.update(STRIPE_SECRET_KEY="sk_test_123")
    stripe = first_answer("do you take paypal")

    assert "test" in offline and "4242" in offline
    assert "Stripe" in stripe and "4242" not in stripe
    assert "don't take PayPal" in offline and "don't take PayPal" in stripe


def test_the_size_answer_reads_the_size_table_of_the_department_asked_about(app):
    kids = size_guide.table_for("kids")

    answer = shop_policies.search("what size for my 6 year old?")[0]
    with_context = shop_policies.search("what size am I", context="women's wrap dress")[0]

    assert answer["url"] == "/size-guide#kids"
    assert all(f"{size} {values[0]}" in answer["answer"] for size, values in kids.rows.items())
    assert "Women" in with_context["answer"] and "Kids" not in with_context["answer"]
    assert size_guide.kids_size_for_age(6) == "S" and kids.rows["S"][0] == "5–6"


def test_every_answer_links_to_a_page_that_exists(app, client):
    for answers in shop_policies.all_answers().values():
        for answer in answers:
            path = answer["url"].split("#")[0]
            assert client.get(path).status_code == 200, answer["url"]


def test_the_checkout_offers_the_delivery_times_the_assistant_quotes(app, client):
    from insightshop.services import cart
    from tests.factories import make_product

    product = make_product(sizes=("M",))
    client.get("/")
    with client.session_transaction() as session:
        guest = session.get("guest_id") or "policy-guest"
        session["guest_id"] = guest
    cart.add_item(Actor(guest_id=guest), product.id, 1)
    page = client.get("/checkout").get_data(as_text=True)
    answer = first_answer("how long does delivery take")

    for label, days in shop_policies.DELIVERY_OPTIONS.values():
        assert f'{label} <span class="muted">· {days}</span>' in page  # the checkout's delivery option
        assert days in answer


def test_the_tool_answers_anyone_and_returns_no_answers_off_topic(app):
    shipping = run_tool("search_shop_policies_and_faqs", {"query": "how much is postage?"}, Actor())
    weather = run_tool("search_shop_policies_and_faqs", {"query": "what's the weather"}, Actor())

    assert shipping["ok"] and shipping["data"]["answers"][0]["topic"] == "shipping"
    assert set(shipping["data"]["answers"][0]) == {"topic", "question", "answer", "url"}
    assert re.search(r"\$\d+\.\d\d", shipping["data"]["answers"][0]["answer"])
    assert weather == {"ok": True, "data": {"answers": []}}
