"""Issue 28, failure classes 4 and 8 through whole chat turns (offline engine): receipt questions answer with the
figure the database gives for exactly what was asked (item lines of coffee, not whole receipts; nothing matching
is nothing), follow-ups keep the scope; a shopper cancels their own unshipped order (restocked, refunded), hears
where their refund is and whether they can still return an order, from its dates."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.models.base import utcnow
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order, PaymentLog, ReturnItem, ReturnRequest
from insightshop.models.receipts import ReceiptItem
from insightshop.services.actors import Actor
from tests.factories import make_paid_order, make_product, make_user
from tests.receipt_factories import receipt

TODAY = date.today()
THIS_YEAR = max(TODAY.replace(month=1, day=2), TODAY) if TODAY.month == 1 else TODAY.replace(month=1, day=2)


def say(actor: Actor, *messages: str) -> dict:
    turn, conversation = None, None
    for message in messages:
        turn = chat.chat_turn(actor, message, conversation)
        conversation = turn["conversation_id"]
    return turn


def approve(actor: Actor, turn: dict) -> dict:
    pending = next(c for c in turn["tool_calls"] if c["outcome"] == "needs_confirmation")
    return chat.confirm(actor, turn["conversation_id"], pending["confirmation_id"], True)


def money(amount: Decimal) -> str:
    return f"${amount:.2f}"


# Receipts ------------------------------------------------------------------------------------------------------------


@pytest.fixture
def spender(app):
    user = make_user("spender@example.com")
    receipt(
        user, "Starbucks", THIS_YEAR, [("Caffe Latte", "4.50", "Beverages"), ("Blueberry Muffin", "3.25", "Bakery")]
    )
    receipt(user, "Whole Foods", THIS_YEAR, [("Ground Coffee 500g", "11.99", "Beverages"), ("Steak", "24.00", "Meat")])
    receipt(user, "Starbucks", date(2026, 3, 14), [("Americano", "3.10", "Beverages")])
    receipt(user, "Starbucks", date(2026, 2, 9), [("Flat White", "4.20", "Beverages"), ("Cookie", "2.00", "Snacks")])
    receipt(user, "Whole Foods", date(2018, 6, 1), [("Coffee Beans", "9.00", "Beverages"), ("Rice", "60.00", None)])
    receipt(make_user("other@example.com"), "Starbucks", THIS_YEAR, [("Caffe Latte", "500.00", "Beverages")])
    return Actor(user=user)


def coffee_lines(user_id: int, since: date) -> Decimal:
    """The coffee item lines of the user's receipts since a date, straight from the database."""
    from insightshop.models.receipts import Receipt

    rows = (
        db.session.query(ReceiptItem).join(Receipt).filter(Receipt.user_id == user_id, Receipt.purchase_date >= since)
    )
    names = ("latte", "coffee", "americano", "flat white")
    return sum((i.total_price for i in rows if any(n in i.item_name.lower() for n in names)), Decimal("0.00"))


def all_receipts(user_id: int, since: date | None = None) -> Decimal:
    from insightshop.models.receipts import Receipt

    rows = db.session.query(Receipt).filter(Receipt.user_id == user_id)
    return sum((r.total_amount for r in rows if since is None or r.purchase_date >= since), Decimal("0.00"))


@pytest.mark.parametrize("message", ["how much did I spend on coffee this year",
                                     "how much have i spent on cofee this yr?",
                                     "what did my coffee habit cost me this year"])  # fmt: skip
def test_coffee_this_year_is_the_sum_of_the_coffee_item_lines(spender, message):
    turn = say(spender, message)

    expected = coffee_lines(spender.user.id, TODAY.replace(month=1, day=1))
    [call] = turn["tool_calls"]
    assert call["name"] == "receipts_spending" and call["outcome"] == "executed"
    assert money(expected) in turn["reply"]
    assert money(all_receipts(spender.user.id, TODAY.replace(month=1, day=1))) not in turn["reply"]
    assert "$500" not in turn["reply"] and "[" in turn["reply"]  # another shopper's latte never; citations quoted


@pytest.mark.parametrize("message", ["how much did I spend on sushi this year", "how much have I spent on toys?"])
def test_a_question_nothing_matches_is_answered_with_nothing_never_the_total(spender, message):
    turn = say(spender, message)

    assert "$0.00" in turn["reply"]
    assert money(all_receipts(spender.user.id)) not in turn["reply"]


def test_since_2019_is_a_date_so_the_2018_receipt_is_left_out(spender):
    turn = say(spender, "how much have I spent since 2019?")

    assert money(all_receipts(spender.user.id, date(2019, 1, 1))) in turn["reply"]
    assert money(all_receipts(spender.user.id)) not in turn["reply"]


@pytest.mark.parametrize("message", ["what was my biggest receipt", "my bigest reciept ever?"])
def test_the_biggest_receipt_is_named_with_its_total(spender, message):
    turn = say(spender, message)

    assert "$69.00" in turn["reply"] and "Whole Foods" in turn["reply"]


def test_follow_ups_keep_the_scope_and_change_only_what_they_say(spender):
    first = say(spender, "how much did I spend at Starbucks in March 2026?")
    assert "$3.10" in first["reply"]

    before = chat.chat_turn(spender, "and the month before?", first["conversation_id"])
    assert "$6.20" in before["reply"] and "$3.10" not in before["reply"]  # February at Starbucks

    coffee = chat.chat_turn(spender, "what about coffee?", first["conversation_id"])
    assert "$4.20" in coffee["reply"] and "$6.20" not in coffee["reply"]  # February's coffee lines only


def test_month_over_month_names_both_figures(spender):
    turn = say(spender, "compare my spending at starbucks in march vs february")

    [call] = turn["tool_calls"]
    assert call["name"] == "receipts_compare"
    assert "$3.10" in turn["reply"] and "$6.20" in turn["reply"] and "less" in turn["reply"]


# Orders --------------------------------------------------------------------------------------------------------------


@pytest.fixture
def buyer(app):
    return Actor(user=make_user("buyer@example.com"))


def stock_of(product) -> int:
    return db.session.get(ProductVariant, product.variants[0].id).stock


@pytest.mark.parametrize("message", ["cancel my last order", "cancle my last ordr pls",
                                     "I changed my mind, can you cancel my order?"])  # fmt: skip
def test_cancelling_my_last_order_restocks_and_refunds_it_after_approval(buyer, message):
    product = make_product("Linen Shirt", price="30.00", stock=4)
    order = make_paid_order(buyer, product)

    turn = say(buyer, message)
    assert db.session.get(Order, order.id).status == "paid"  # only proposed
    assert f"#{order.id}" in turn["reply"]
    approve(buyer, turn)

    assert db.session.get(Order, order.id).status == "cancelled" and stock_of(product) == 4
    refunds = db.session.query(PaymentLog).filter_by(order_id=order.id, kind="refund").all()
    assert [r.amount for r in refunds] == [order.total]


def test_a_shipped_order_is_not_cancelled_and_the_reply_says_why(buyer):
    product = make_product("Linen Shirt", price="30.00", stock=4)
    order = make_paid_order(buyer, product)
    order.status, order.carrier, order.tracking_number = "shipped", "UPS", "1Z-OUTCOME-1"
    db.session.commit()

    turn = say(buyer, "please cancel my most recent order")

    assert "already shipped" in turn["reply"]
    assert not [c for c in turn["tool_calls"] if c["outcome"] == "needs_confirmation"]
    assert db.session.get(Order, order.id).status == "shipped" and stock_of(product) == 3


def test_someone_elses_order_number_is_not_found(buyer):
    order = make_paid_order(Actor(user=make_user("owner@example.com")), make_product("Wool Coat", stock=4))

    turn = say(buyer, f"cancel my order #{order.id}")

    assert "find" in turn["reply"].lower() and db.session.get(Order, order.id).status == "paid"


def deliver(order: Order, days_ago: int) -> None:
    order.status, order.delivered_at = "delivered", utcnow() - timedelta(days=days_ago)
    db.session.commit()


@pytest.mark.parametrize("message", ["where is my refund", "wheres my refnd??", "what's happening with my return?"])
def test_where_is_my_refund_reports_the_pending_return(buyer, message):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(order, 3)
    request = ReturnRequest(order_id=order.id, status="requested")
    request.items.append(ReturnItem(order_item_id=order.items[0].id, quantity=1, reason="too small"))
    db.session.add(request)
    db.session.commit()

    turn = say(buyer, message)

    assert f"#{request.id}" in turn["reply"] and f"#{order.id}" in turn["reply"]
    assert "waiting for review" in turn["reply"]


def test_can_i_still_return_it_answers_from_the_delivery_date(app, buyer):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(order, 5)
    last_day = (order.delivered_at + timedelta(days=app.config["RETURN_WINDOW_DAYS"])).date()

    turn = say(buyer, "where's my order?", "can I still return it?")

    assert turn["reply"].startswith("Yes") and f"#{order.id}" in turn["reply"]
    assert f"{last_day:%b} {last_day.day}, {last_day.year}" in turn["reply"]


def test_a_closed_return_window_is_a_no_with_its_date(app, buyer):
    order = make_paid_order(buyer, make_product("Wool Coat", stock=4))
    deliver(order, 40)
    closed = (order.delivered_at + timedelta(days=app.config["RETURN_WINDOW_DAYS"])).date()

    turn = say(buyer, "is it too late to return my last order?")

    assert turn["reply"].startswith("No") and f"closed on {closed:%b} {closed.day}, {closed.year}" in turn["reply"]


# The panel ----------------------------------------------------------------------------------------------------------


def _ask_in_panel(client, user, message: str) -> str:
    from tests.factories import csrf_token

    client.post("/login", data={"email": user.email, "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    response = client.post("/chat/message", data={"message": message, "csrf_token": csrf_token(client)},
                           headers={"HX-Request": "true"})  # fmt: skip
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_panel_shows_the_orders_return_window_card(app, client, buyer):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(order, 5)

    page = _ask_in_panel(client, buyer.user, "can I still return my last order?")

    assert f"Order #{order.id} · Delivered" in page and f'href="/orders/{order.id}"' in page
    assert "Linen Shirt" in page and "order_id" not in page


def test_the_panel_links_each_coffee_line_to_its_receipt(app, client, spender):
    page = _ask_in_panel(client, spender.user, "how much did I spend on coffee this year?")

    assert 'class="chat-cite" href="/receipts/' in page and "?field=items.1.total_price" in page


def test_it_means_the_order_just_talked_about_not_the_newest(app, buyer):
    returned = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(returned, 10)
    request = ReturnRequest(order_id=returned.id, status="requested")
    request.items.append(ReturnItem(order_item_id=returned.items[0].id, quantity=1, reason="too big"))
    db.session.add(request)
    db.session.commit()
    newest = make_paid_order(buyer, make_product("Wool Coat", stock=4))

    turn = say(buyer, "where's my refund?", "and can I still return it?")

    assert f"#{returned.id}" in turn["reply"] and f"#{newest.id}" not in turn["reply"]
    assert turn["tool_calls"][-1]["arguments"] == {"order_id": returned.id}


@pytest.mark.parametrize("message", ["is my order still returnable", "am I still within the 30 days for my order?"])
def test_return_eligibility_in_other_words_answers_from_the_orders_dates(app, buyer, message):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(order, 5)
    turn = say(buyer, message)
    assert [c["name"] for c in turn["tool_calls"]] == ["order_return_eligibility"]
    assert turn["reply"].startswith("Yes") and f"#{order.id}" in turn["reply"]


@pytest.mark.parametrize("message", ["is my parcel on its way", "have you sent my things yet"])
def test_a_signed_in_shoppers_order_question_in_other_words_lists_their_orders(buyer, message):
    order = make_paid_order(buyer, make_product("Wool Coat", stock=4))
    turn = say(buyer, message)
    assert [c["name"] for c in turn["tool_calls"]] == ["orders_list_mine"]
    assert [o["id"] for o in turn["tool_calls"][0]["result"]["orders"]] == [order.id]


@pytest.mark.parametrize("message, expected", [("compare this month with last month", "receipts_compare"),
                                               ("my largest purchase this year", "receipts_extreme")])  # fmt: skip
def test_a_receipts_question_without_spending_words_reads_the_receipts(spender, message, expected):
    turn = say(spender, message)
    assert [c["name"] for c in turn["tool_calls"]] == [expected]
