"""Issue 28 follow-ups on whole chat turns (offline engine, demo catalog): "show me more" shows the next results of
the same search (never a button or the same list), a shopper's "how many … are left" gets the counts the database
holds (no admin tool), a guest can cancel an order of their own cart, and an admin's "revenue this week" is the
sales report for that period rather than the dashboard's canned text."""

from __future__ import annotations

import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product, ProductVariant
from insightshop.models.orders import Order
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate
from tests.agent.test_brief import assert_no_internal_text, matches, say
from tests.agent.test_service_outcomes import approve
from tests.factories import make_product, make_user

ADDRESS = dict(email="guest@example.com", shipping_name="Gus Guest", shipping_address="1 Main St",
               shipping_city="Springfield", shipping_state="IL", shipping_zip="62701")  # fmt: skip


@pytest.fixture
def guest(demo_catalog):
    invalidate()
    return Actor(guest_id="more-guest")


def search_total(turn: dict) -> int:
    [search] = [c for c in turn["tool_calls"] if c["name"] == "search_products"]
    return search["result"]["pagination"]["total"]


@pytest.mark.parametrize("more", ["show me more", "more please", "next page", "any more?", "what else have you got"])
def test_show_me_more_shows_the_next_results_of_the_same_search_then_says_there_are_no_more(guest, more):
    first = say(guest, "show me hoodies")
    conversation = first["conversation_id"]
    shown, total = matches(first), search_total(first)
    assert len(shown) == 10 and total > 10  # the demo catalog has more hoodies than one page

    second = say(guest, more, conversation=conversation)
    following = matches(second)

    assert following and not {p.id for p in following} & {p.id for p in shown}
    assert all(p.clothing_type == "hoodie" for p in following)
    assert len(shown) + len(following) == min(total, 20)
    assert f"of {total}" in second["reply"] and second["cards"][0].get("type") != "suggestions"
    assert_no_internal_text(second["reply"])
    if total <= 20:
        last = say(guest, more, conversation=conversation)
        assert not matches(last) and "nothing more" in last["reply"]
        assert not [c for c in last["cards"] if c.get("type") == "products"]  # no empty card under the reply


def test_more_after_a_new_search_starts_from_that_searchs_second_page(guest):
    conversation = say(guest, "show me hoodies", "show me more")["conversation_id"]
    sweaters = say(guest, "show me sweaters", conversation=conversation)
    more = say(guest, "show me more", conversation=conversation)

    assert all(p.clothing_type == "sweater" for p in matches(more))
    assert not {p.id for p in matches(more)} & {p.id for p in matches(sweaters)}


@pytest.mark.parametrize(
    "question", ["how many navy hoodies in M are left", "how many navy hoodies in M have you got left?"]
)
def test_a_shoppers_stock_question_gets_the_counts_the_database_holds(guest, question):
    turn = say(guest, question)

    assert [c["name"] for c in turn["tool_calls"]] == ["search_products"]  # never an admin tool
    held = (
        db.session.query(Product.name, ProductVariant.stock)
        .join(ProductVariant)
        .filter(Product.clothing_type == "hoodie", Product.is_active.is_(True))
        .filter(ProductVariant.color == "navy", ProductVariant.size == "M", ProductVariant.stock > 0)
        .all()
    )
    assert held
    for name, stock in held:
        assert f"{name} (" in turn["reply"] and f"{stock} left" in turn["reply"], turn["reply"]
    assert_no_internal_text(turn["reply"])


def test_a_guest_cancels_the_unpaid_order_of_their_own_cart(guest):
    product = make_product("Guest Linen Shirt", sizes=("M",), price="30.00", stock=4)
    cart.add_item(guest, product.id, 1)
    order = orders.place_order(guest, orders.ShippingDetails(**ADDRESS))
    assert db.session.get(ProductVariant, product.variants[0].id).stock == 3

    turn = say(guest, "cancel my last order")
    assert f"#{order.id}" in turn["reply"] and db.session.get(Order, order.id).status != "cancelled"
    approve(guest, turn)

    assert db.session.get(Order, order.id).status == "cancelled"
    assert db.session.get(ProductVariant, product.variants[0].id).stock == 4


def test_a_guest_with_no_order_here_is_told_where_to_find_one_and_nothing_changes(guest):
    other = Actor(user=make_user("someone@example.com"))
    product = make_product("Someone Shirt", sizes=("M",), price="30.00", stock=4)
    cart.add_item(other, product.id, 1)
    order = orders.place_order(other, orders.ShippingDetails(**{**ADDRESS, "email": "someone@example.com"}))

    turn = say(guest, "please cancel my last order")

    assert "Order status" in turn["reply"] and "sign in" in turn["reply"]
    assert not [c for c in turn["tool_calls"] if c["outcome"] == "needs_confirmation"]
    assert db.session.get(Order, order.id).status == order.status


@pytest.mark.parametrize(
    "question", ["revenue this week", "what's the revenue this week?", "how much did we sell this week"]
)
def test_an_admins_revenue_question_is_the_sales_report_for_that_period(demo_catalog, question):
    invalidate()
    admin = Actor(user=make_user("boss@example.com", admin=True))

    turn = say(admin, question)

    [report] = [c for c in turn["tool_calls"] if c["name"] == "admin_sales_report"]
    assert report["arguments"]["period"] == "week" and report["outcome"] == "executed"
    assert "revenue $" in turn["reply"] and "Low on stock" not in turn["reply"]


@pytest.mark.parametrize(
    "question", ["any red dresses left", "any black jeans in 32 left?", "what hoodies are left in M?"]
)
def test_whats_left_is_a_search_for_what_is_in_stock_never_for_the_word_left(guest, question):
    turn = say(guest, question)

    [search] = [c for c in turn["tool_calls"] if c["name"] == "search_products"]
    assert search["arguments"].get("in_stock") is True and "left" not in search["arguments"].get("query", "")
    assert matches(turn) and all(p.stock_quantity > 0 for p in matches(turn))
    assert "left" not in turn["reply"]
