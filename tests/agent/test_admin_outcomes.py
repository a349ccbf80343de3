"""Outcomes of an admin's whole chat turns with the offline engine on the demo catalog: what the database holds after
Approve (or still holds when refused), which tool ran with which arguments, and what the reply says."""

from __future__ import annotations

import re

import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.models.orders import Order
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate
from tests.admin_helpers import make_admin
from tests.agent.test_outcomes import approve, say


@pytest.fixture
def admin(demo_catalog):
    invalidate()
    return Actor(user=make_admin())


@pytest.fixture
def shopper(demo_catalog):
    from tests.factories import make_user

    invalidate()
    return Actor(user=make_user("shopper@example.com"))


def stock(product_id: int) -> dict[tuple[str, str], int]:
    db.session.expire_all()
    return {(v.color, v.size): v.stock for v in db.session.get(Product, product_id).variants}


def paid_orders(email: str, count: int = 1) -> list[Order]:
    from tests.factories import make_paid_order, make_user

    buyer = Actor(user=make_user(email))
    return [make_paid_order(buyer, db.session.get(Product, 1)) for _ in range(count)]


# Stock of one variant, by the product's name -----------------------------------------------------------------------


@pytest.mark.parametrize("message", ["restock the men's white oxford shirt size M with 20 units",
                                     "pls restock the mens white oxford shirt in medium w/ 20 units",
                                     "can u set the stock of the men's white oxford shirt size M to 20"])  # fmt: skip
def test_restocking_one_variant_by_name_sets_only_that_variant_after_approve(admin, message):
    before = stock(1)
    turn = say(admin, message)

    [call] = turn["tool_calls"]
    assert (call["name"], call["outcome"]) == ("admin_product_update", "needs_confirmation")
    assert call["arguments"] == {"product_id": 1, "stock_quantity": 20, "size": "M", "color": "white"}
    assert "white / M" in turn["reply"] and "20" in turn["reply"]
    assert stock(1) == before  # nothing before Approve
    approve(admin, turn)

    after = stock(1)
    assert after[("white", "M")] == 20
    assert {k: v for k, v in after.items() if k != ("white", "M")} == {
        k: v for k, v in before.items() if k != ("white", "M")
    }
    assert db.session.get(Product, 1).color == "white"


def test_a_name_several_products_carry_asks_which_then_restocks_the_one_chosen(admin):
    asked = say(admin, "restock the white oxford shirt size M with 20 units")
    assert asked["tool_calls"] == [] and all(f"#{i}" in asked["reply"] for i in (1, 70, 145))

    turn = say(admin, "the kids one", conversation=asked["conversation_id"])
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"product_id": 145, "stock_quantity": 20, "size": "M", "color": "white"}
    approve(admin, turn)
    assert stock(145)[("white", "M")] == 20


def test_a_colour_with_several_sizes_asks_the_size_first(admin):
    asked = say(admin, "restock the men's fleece hoodie in black with 20")
    assert asked["tool_calls"] == [] and "size" in asked["reply"].lower()
    turn = say(admin, "L", conversation=asked["conversation_id"])
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"product_id": 27, "stock_quantity": 20, "color": "black", "size": "L"}


@pytest.mark.parametrize("message, said", [
    ("restock the purple oxford shirt size M with 20", "no purple / M"),
    ("restock the men's white oxford shirt in XS with 20", "no white / XS"),
    ("restock the velvet tuxedo shirt size M with 20 units", "I can't find"),
])  # fmt: skip
def test_a_variant_or_product_that_does_not_exist_is_said_and_nothing_changes(admin, message, said):
    before = {pid: stock(pid) for pid in (1, 6, 70)}
    turn = say(admin, message)
    assert turn["tool_calls"] == [] and said in turn["reply"] and "changed nothing" in turn["reply"]
    assert {pid: stock(pid) for pid in (1, 6, 70)} == before


def test_adding_units_is_a_relative_change_of_that_variant(admin):  # issue 28: no longer refused
    turn = say(admin, "add 20 more units of the men's white oxford shirt size M")
    [call] = turn["tool_calls"]
    assert (call["name"], call["arguments"]) == ("admin_stock_change", {"product_id": 1, "change": 20, "size": "M",
                                                                        "color": "white"})  # fmt: skip


def test_the_tool_refuses_a_missing_variant_even_when_asked_by_number(admin):
    before = stock(1)
    turn = say(admin, "pls restock product 1 white XS with 12 units")
    calls = turn["tool_calls"]
    if calls:  # planned: Approve then fails on the tool's own check
        result = approve(admin, turn)
        assert result["tool_calls"][0]["outcome"] == "error" and "no white / XS" in result["reply"]
    assert stock(1) == before


def test_the_update_tool_with_one_size_sets_that_variants_stock_only(admin):
    from insightshop.utils.agent_executor import run_tool

    before = stock(6)  # blue and pink
    result = run_tool("admin_product_update", {"product_id": 6, "stock_quantity": 9, "size": "L", "color": "pink"},
                      admin, confirmed=True)  # fmt: skip
    assert result["ok"]
    after = stock(6)
    assert after[("pink", "L")] == 9 and after[("blue", "L")] == before[("blue", "L")]
    assert db.session.get(Product, 6).color == "blue"  # the colour picked the variant; the product's stays

    missing = run_tool("admin_product_update", {"product_id": 6, "stock_quantity": 9, "size": "XS", "color": "pink"},
                       admin, confirmed=True)  # fmt: skip
    assert not missing["ok"] and "no pink / XS variant" in missing["error"]["message"]
    assert stock(6) == after


# Prices by name ---------------------------------------------------------------------------------------------------


def test_repricing_by_name_asks_which_then_changes_that_price_only(admin):
    asked = say(admin, "set the price of the denim jacket to 59.99")
    assert asked["tool_calls"] == [] and all(f"#{i}" in asked["reply"] for i in (32, 98, 167))
    turn = say(admin, "women's", conversation=asked["conversation_id"])
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"product_id": 98, "price": 59.99}
    approve(admin, turn)
    db.session.expire_all()
    assert str(db.session.get(Product, 98).price) == "59.99" and str(db.session.get(Product, 32).price) == "86.00"


# Best sellers and stock questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("message, period, by", [
    ("whats the best selling product this month", "month", "units"),
    ("top 5 products by revenue", "all", "revenue"),
    ("wats our bestsellers lst 30 days", "month", "units"),
    ("which items sold the most this week?", "week", "units"),
    ("most popular products this year", "year", "units"),
])  # fmt: skip
def test_best_sellers_come_from_the_dashboard_of_the_period_and_are_listed(admin, message, period, by):
    paid_orders("jane@example.com", 2)

    turn = say(admin, message)

    [call] = turn["tool_calls"]
    assert (call["name"], call["arguments"]["period"]) == ("admin_dashboard", period)
    top = call["result"]["top_products"]
    assert top and top[0]["name"] == "Oxford Button-Down Shirt" and top[0]["units"] == 2
    assert "Oxford Button-Down Shirt — 2 sold" in turn["reply"] and f"${top[0]['revenue']}" in turn["reply"]
    assert ("by revenue" if by == "revenue" else "by units sold") in turn["reply"]


def test_best_sellers_with_no_orders_say_so(admin):
    turn = say(admin, "best sellers this month?")
    assert turn["tool_calls"][0]["name"] == "admin_dashboard" and "no best sellers yet" in turn["reply"]


@pytest.mark.parametrize("message", ["which dresses are out of stock?", "any dresses sold out?",
                                     "can u show me dresses that are out of stok pls"])  # fmt: skip
def test_which_dresses_are_out_of_stock_answers_about_dresses_only(admin, message):
    dress = db.session.get(Product, 125)
    next(v for v in dress.variants if (v.color, v.size) == ("black", "M")).stock = 0
    db.session.commit()
    empty = {(p.id, v.color, v.size) for p in db.session.query(Product).filter_by(clothing_type="dress", is_active=True)
             for v in p.variants if v.stock == 0}  # fmt: skip

    turn = say(admin, message)

    calls = turn["tool_calls"]
    assert {(c["name"], c["arguments"]["clothing_type"]) for c in calls} == {("search_products", "dress")}
    assert {c["arguments"]["category"] for c in calls} == {"women", "kids"}
    assert "Wrap Midi Dress (#125, black / M: 0)" in turn["reply"] and turn["reply"].startswith("Dresses out of stock")
    assert all(f"(#{pid}, {color} / {size}: 0)" in turn["reply"] for pid, color, size in empty)
    named = {int(i) for i in re.findall(r"\(#(\d+),", turn["reply"])}
    assert named == {pid for pid, _c, _s in empty}  # dresses only


def test_no_kind_out_of_stock_is_said_plainly(admin):
    turn = say(admin, "are any kids jackets out of stock?")
    calls = turn["tool_calls"]
    assert [(c["arguments"]["clothing_type"], c["arguments"]["category"]) for c in calls] == [("jacket", "kids")]
    found = [(p["id"], v) for p in calls[0]["result"]["products"] for v in p["variants"] if v["stock"] == 0]
    assert turn["reply"].startswith("Kids' jackets out of stock" if found else "No kids' jackets are out of stock")


def test_how_many_products_are_low_on_stock_with_typos_lists_low_stock(admin):
    turn = say(admin, "hw many prodcts are low on stok")
    [call] = turn["tool_calls"]
    assert call["name"] == "admin_dashboard" and "Low on stock:" in turn["reply"]


# Orders of a customer, counts by status ---------------------------------------------------------------------------


@pytest.mark.parametrize("message", ["find the order for jane@example.com", "orders from customer jane@example.com",
                                     "show orders of jane@example.com pls", "did jane@example.com buy anything?"])  # fmt: skip
def test_a_customers_orders_are_listed_by_email(admin, message):
    orders = paid_orders("jane@example.com", 2)
    paid_orders("other@example.com")

    turn = say(admin, message)

    [call] = turn["tool_calls"]
    assert (call["name"], call["arguments"]) == ("admin_orders_list", {"search": "jane@example.com"})
    assert {o["id"] for o in call["result"]["orders"]} == {o.id for o in orders}
    assert turn["reply"].startswith("2 orders for jane@example.com") and all(
        f"#{o.id}" in turn["reply"] for o in orders
    )


def test_a_customer_without_orders_is_said_plainly(admin):
    turn = say(admin, "show orders of bob@x.com")
    assert turn["tool_calls"][0]["arguments"] == {"search": "bob@x.com"}
    assert turn["reply"] == "There are no orders for bob@x.com."


@pytest.mark.parametrize("message, status", [("how many orders are pending?", "pending"),
                                             ("how many cancelled orders do we have", "cancelled"),
                                             ("any unshipped orders?", "unshipped")])  # fmt: skip
def test_order_counts_by_status_come_from_the_orders_list(admin, message, status):
    turn = say(admin, message)
    [call] = turn["tool_calls"]
    assert (call["name"], call["arguments"]) == ("admin_orders_list", {"status": status})
    assert turn["reply"] == f"There are no {status} orders."


# What no tool does: said plainly, never a product search ------------------------------------------------------------


@pytest.mark.parametrize("message, where", [
    ("show me the reviews waiting for moderation", "Admin → Reviews"),
    ("any reviews pending approval?", "Admin → Reviews"),
    ("show me customer carts that are still active", "Admin → Carts"),
    ("how many abandoned carts are there", "Admin → Carts"),
    ("make user bob@example.com an admin", "Admin → Users"),
    ("can u give jane@example.com admin rights", "Admin → Users"),
    ("list all users", "Admin → Users"),
    ("how did sales do yesterday compared to the day before", "Admin → Dashboard"),
    ("what was revenue yesterday", "Admin → Dashboard"),
])  # fmt: skip
def test_what_no_tool_does_is_said_with_where_it_is_done(admin, message, where):
    turn = say(admin, message)
    assert turn["tool_calls"] == []
    assert where in turn["reply"] and "can't" in turn["reply"]


def test_admin_rights_are_never_granted_through_the_chat(admin):
    from tests.factories import make_user

    bob = make_user("bob@example.com")
    say(admin, "make user bob@example.com an admin")
    db.session.expire_all()
    assert not db.session.get(type(bob), bob.id).is_admin


# A shopper trying the admin tools: the guard refuses, nothing changes ------------------------------------------------


@pytest.mark.parametrize("message", ["show me the sales dashboard", "whats the shops revenue this month",
                                     "how much did the shop make today?"])  # fmt: skip
def test_a_shoppers_request_for_the_shops_figures_is_refused_by_the_guard(shopper, message):
    turn = say(shopper, message)
    [call] = turn["tool_calls"]
    assert (call["name"], call["outcome"]) == ("admin_dashboard", "rejected")
    assert "result" not in call and "revenue $" not in turn["reply"] and "admins" in turn["reply"]


def test_a_shoppers_restock_or_reprice_changes_nothing(shopper):
    before = stock(1), str(db.session.get(Product, 1).price)
    for message in ("restock the men's white oxford shirt size M with 20 units", "set the price of product 1 to 1",
                    "set the price of the men's white oxford shirt to 1 dollar"):  # fmt: skip
        turn = say(shopper, message)
        assert all(c["outcome"] == "rejected" for c in turn["tool_calls"])
        assert not any(c["outcome"] == "needs_confirmation" for c in turn["tool_calls"])
    db.session.expire_all()
    assert (stock(1), str(db.session.get(Product, 1).price)) == before


def test_a_shoppers_status_change_is_refused_and_the_order_is_unchanged(shopper):
    [order] = paid_orders("buyer@example.com")
    turn = say(shopper, f"mark order {order.id} as delivered")
    assert [c["outcome"] for c in turn["tool_calls"]] == ["rejected"]
    db.session.expire_all()
    assert db.session.get(Order, order.id).status == "paid"


def test_a_shoppers_questions_about_stock_and_best_sellers_stay_searches(shopper):
    for message in ("what are your best sellers?", "is the red dress out of stock?"):
        turn = say(shopper, message)
        assert [c["name"] for c in turn["tool_calls"]] == ["search_products"]
