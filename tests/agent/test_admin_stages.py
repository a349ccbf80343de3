"""The offline engine's reading of an admin's requests, on the demo catalog's vocabulary (no database): which call
is planned with which arguments, what is asked, and what is never planned (a product search for admin words)."""

from __future__ import annotations

import pytest

from insightshop.agent.offline import interpret
from insightshop.agent.offline.admin_requests import StockOf, TopProducts
from insightshop.services.shop_vocabulary import demo_vocabulary

V = demo_vocabulary()


def admin(message: str, context: dict | None = None):
    return interpret(message, context, is_admin=True, vocabulary=V)


def planned(result) -> list[tuple[str, dict]]:
    return [(c.name, c.arguments) for c in result.calls]


@pytest.mark.parametrize("message, arguments", [
    ("restock the men's white oxford shirt size M with 20 units", {"product_id": 1, "size": "M", "color": "white"}),
    ("pls restok the mens white oxford shirt sz M w/ 20 units", {"product_id": 1, "size": "M", "color": "white"}),
    ("set the stock of product 1 white M to 20", {"product_id": 1, "size": "M", "color": "white"}),
    ("can u update the inventory of the pink oxford shirt size XXL to 20", {"product_id": 6, "size": "XXL",
                                                                            "color": "pink"}),
    ("change the stock of the women's black fleece hoodie in L to 20", {"product_id": 93, "size": "L",
                                                                        "color": "black"}),
])  # fmt: skip
def test_a_variants_stock_by_name_is_one_product_update(message, arguments):
    assert planned(admin(message)) == [("admin_product_update", {**arguments, "stock_quantity": 20})]


def test_out_of_stock_for_one_variant_sets_zero():
    result = admin("mark the men's white oxford shirt size M as out of stock")
    assert planned(result) == [("admin_product_update", {"product_id": 1, "stock_quantity": 0, "size": "M",
                                                         "color": "white"})]  # fmt: skip


def test_the_whole_products_stock_by_number_stays_the_phrase_rules():
    assert planned(admin("set stock of product 9 to 15")) == [("admin_product_update", {"product_id": 9,
                                                                                         "stock_quantity": 15})]  # fmt: skip


def test_several_products_of_one_name_are_asked_about_and_the_answer_completes_it():
    asked = admin("restock the white oxford shirt size M with 20 units")
    assert not asked.calls and asked.context["pending"]["choices"] == [1, 70, 145]
    for answer, product_id in (("#70", 70), ("the women's", 70), ("kids", 145), ("product 1", 1)):
        done = admin(answer, asked.context)
        assert planned(done) == [("admin_product_update", {"product_id": product_id, "stock_quantity": 20,
                                                           "size": "M", "color": "white"})]  # fmt: skip
        assert "pending" not in done.context


@pytest.mark.parametrize("message, arguments", [
    ("set the price of the men's denim jacket to 59.99", {"product_id": 32, "price": 59.99}),
    ("the kids denim jacket should cost 35", {"product_id": 167, "price": 35}),
    ("change the price of the women's leather biker jacket to $299", {"product_id": 99, "price": 299}),
])  # fmt: skip
def test_a_price_by_name_is_one_product_update(message, arguments):
    assert planned(admin(message)) == [("admin_product_update", arguments)]


@pytest.mark.parametrize("message, period, limit, by", [
    ("whats the best selling product this month", "month", 1, "units"),
    ("top 5 products by revenue", "all", 5, "revenue"),
    ("top 3 sellers last 30 days", "month", 3, "units"),
    ("what sold best this week", "week", 5, "units"),
    ("most popular items today", "today", 5, "units"),
    ("our biggest earners this year by revenue", "year", 5, "revenue"),
])  # fmt: skip
def test_best_sellers_are_the_dashboard_of_the_period_with_a_ranking_step(message, period, limit, by):
    [call] = admin(message).calls
    assert (call.name, call.arguments) == ("admin_dashboard", {"period": period})
    assert isinstance(call.then, TopProducts) and (call.then.limit, call.then.by) == (limit, by)


def test_the_ranking_step_orders_by_revenue_when_asked():
    result = {"period": "all", "revenue": "100.00", "orders": 3, "top_products": [
        {"name": "Tee", "units": 5, "revenue": "50.00"}, {"name": "Coat", "units": 1, "revenue": "300.00"}]}  # fmt: skip
    _, by_revenue = TopProducts(5, "revenue")(result)
    _, by_units = TopProducts(1, "units")(result)
    assert by_revenue.index("Coat") < by_revenue.index("Tee") and "1. Coat — 1 sold, $300.00" in by_revenue
    assert "1. Tee — 5 sold, $50.00" in by_units and "Coat" not in by_units


@pytest.mark.parametrize("message, arguments", [
    ("find the order for jane@example.com", {"search": "jane@example.com"}),
    ("orders from customer jane@example.com", {"search": "jane@example.com"}),
    ("show me the shipped orders of bob@x.com", {"search": "bob@x.com", "status": "shipped"}),
    ("has jane@example.com ordered anything", {"search": "jane@example.com"}),
    ("how many orders are pending?", {"status": "pending"}),
    ("hw many orders r cancelled", {"status": "cancelled"}),
])  # fmt: skip
def test_orders_of_a_customer_or_a_status_are_the_orders_list(message, arguments):
    [call] = admin(message).calls
    assert (call.name, call.arguments) == ("admin_orders_list", arguments)


@pytest.mark.parametrize("message", [
    "show me the reviews waiting for moderation", "which reviews need approving", "any flagged reviews?",
    "show me customer carts that are still active", "list abandoned carts", "how many active carts r there",
    "make user bob@example.com an admin", "give jane admin rights pls", "remove admin access from bob",
    "how did sales do yesterday compared to the day before", "who bought the most?", "top 10 customers this year", "revenue yesterday?",
])  # fmt: skip
def test_what_no_tool_does_gets_a_plain_answer_and_no_call(message):
    result = admin(message)
    assert not result.calls and "Admin →" in result.reply


@pytest.mark.parametrize("message", ["which dresses are out of stock?", "any kids dresses low on stock",
                                     "black hoodies running low?"])  # fmt: skip
def test_stock_of_one_kind_reads_that_kind_only(message):
    result = admin(message)
    assert result.calls and all(c.name == "search_products" and isinstance(c.then, StockOf) for c in result.calls)
    assert len({c.arguments["clothing_type"] for c in result.calls}) == 1


def test_the_stock_step_keeps_only_the_variants_asked_about():
    step = StockOf("black hoodies", 0, True, 1, "black")
    product = {"id": 7, "name": "Hood", "variants": [{"color": "black", "size": "M", "stock": 0},
                                                      {"color": "grey", "size": "M", "stock": 0},
                                                      {"color": "black", "size": "L", "stock": 4}]}  # fmt: skip
    _, reply = step({"products": [product], "pagination": {"total": 1}})
    assert reply == "Black hoodies out of stock: Hood (#7, black / M: 0)."


@pytest.mark.parametrize("message", ["restock the white oxford shirt size M with 20 units", "which dresses are out of stock?",
                                     "whats the best selling product this month", "find the order for jane@example.com",
                                     "show me the reviews waiting for moderation", "make user bob@example.com an admin"])  # fmt: skip
def test_an_admins_words_are_never_a_product_search_for_them(message):
    result = admin(message)
    assert not any(c.name == "search_products" and c.arguments.get("query") for c in result.calls)


# A shopper: the admin tool is planned for the guard to refuse, or the shopper's own request stays as it was --------


@pytest.mark.parametrize("message", ["show me the sales dashboard", "what's the shop's revenue this month?"])
def test_a_shoppers_request_for_the_figures_is_the_admin_tool(message):
    assert [c.name for c in interpret(message, None, is_admin=False, vocabulary=V).calls] == ["admin_dashboard"]


@pytest.mark.parametrize("message", ["what are your best sellers?", "is the red dress out of stock?",
                                     "add 2 large white shirts", "find the order for jane@example.com"])  # fmt: skip
def test_a_shoppers_requests_never_reach_the_admin_tools(message):
    names = [c.name for c in interpret(message, None, is_admin=False, vocabulary=V).calls]
    assert not any(name.startswith("admin_") for name in names)


@pytest.mark.parametrize("message, period", [("give me the sales for last month", "month"), ("sales past 7 days", "week"),
                                             ("revenue this year pls", "year")])  # fmt: skip
def test_sales_of_a_period_are_the_figures_never_a_sale_search(message, period):
    assert planned(admin(message)) in ([("admin_dashboard", {"period": period})],
                                       [("admin_sales_report", {"period": period})])  # fmt: skip


@pytest.mark.parametrize(
    "message", ["we got 15 more of the cropped hoodie in S", "add 5 more units of product 3 size M"]
)
def test_stock_added_is_a_relative_change_or_a_question(message):  # issue 28: adding is no longer refused
    result = admin(message)
    assert [c.name for c in result.calls] in ([], ["admin_stock_change"])
    assert all(c.arguments["change"] in (5, 15) for c in result.calls)
    assert result.calls or "?" in (result.reply or result.follow_up)


def test_whats_selling_well_is_the_best_sellers():
    [call] = admin("what's selling well?").calls
    assert call.name == "admin_dashboard" and isinstance(call.then, TopProducts)


# False positives: a shopper's (or an admin's own shopping) words the admin rules must leave alone -----------------


def shopper(message: str, context: dict | None = None):
    return interpret(message, context, is_admin=False, vocabulary=V)


def admin_calls(result) -> list[str]:
    return [c.name for c in result.calls if c.name.startswith("admin_")]


@pytest.mark.parametrize("message", [
    "change the quantity of the leather biker jacket to 2", "set the quantity of the straight leg jeans to 2",
    "put 2 units of the leather biker jacket size M in my bag", "set the qty of the black hoodie in my cart to 3",
])  # fmt: skip
def test_a_quantity_or_the_cart_is_no_stock_change(message):
    result = admin(message)
    assert not admin_calls(result) and (result.context.get("pending") or {}).get("tool") != "admin_product_update"
    assert "units (" not in (result.follow_up or "") and "Which colour" not in (result.follow_up or "")


def test_the_stock_words_still_make_a_stock_change():
    assert planned(admin("set the stock of the men's white oxford shirt size M to 2")) == [
        ("admin_product_update", {"product_id": 1, "stock_quantity": 2, "size": "M", "color": "white"})
    ]


@pytest.mark.parametrize("message, call", [
    ("add the black hoodie in L to my cart", "cart_add_item"), ("show me red dresses in S", "search_products"),
    ("find me a red dress", "search_products"),
])  # fmt: skip
def test_an_open_which_colour_question_does_not_swallow_a_new_request(message, call):
    asked = admin("restock the leather biker jacket size M with 20 units")
    assert asked.follow_up.startswith("Which colour") and asked.context["pending"]["tool"] == "admin_product_update"
    result = admin(message, asked.context)
    assert not admin_calls(result) and [c.name for c in result.calls] == [call]
    assert (result.context.get("pending") or {}).get("tool") != "admin_product_update"


@pytest.mark.parametrize("answer", ["black", "the black one", "black please"])
def test_a_short_answer_still_completes_the_open_question(answer):
    asked = admin("restock the leather biker jacket size M with 20 units")
    assert planned(admin(answer, asked.context)) == [
        ("admin_product_update", {"product_id": 34, "stock_quantity": 20, "size": "M", "color": "black"})
    ]


@pytest.mark.parametrize("message", [
    "can I track my order from my dashboard", "how do I see my orders on the dashboard?", "where is my account dashboard",
    "what's the total sales price of the hoodie", "does the sale price include tax or is it the total sales amount",
    "open the dashboard",
])  # fmt: skip
def test_a_shoppers_own_dashboard_or_a_price_is_not_the_shops_figures(message):
    assert not admin_calls(shopper(message))


@pytest.mark.parametrize("message", ["show me the admin dashboard", "show me the shop's dashboard",
                                     "what's the average order value?", "total sales this month"])  # fmt: skip
def test_the_shops_dashboard_or_figures_are_still_the_admin_tool(message):
    assert admin_calls(shopper(message)) == ["admin_dashboard"]


@pytest.mark.parametrize("message", ["add 2 black hoodies in M for our staff", "give me 3 grey tees for the staff team",
                                     "what did I order yesterday", "what orders did I place yesterday"])  # fmt: skip
def test_staff_gifts_and_my_own_orders_are_no_accounts_or_figures_answer(message):
    reply = admin(message).reply or ""
    assert "customer accounts" not in reply and "past day's figures" not in reply


@pytest.mark.parametrize("message", ["make bob an admin", "give user jane@example.com staff access",
                                     "add the customer bob@x.com as staff", "how much did we make yesterday",
                                     "orders yesterday?"])  # fmt: skip
def test_account_rights_and_one_days_figures_are_still_answered_plainly(message):
    result = admin(message)
    assert not result.calls and "Admin →" in result.reply


def test_the_ranking_step_compares_revenue_as_decimals():
    result = {"period": "all", "revenue": "1000.20", "orders": 2, "top_products": [
        {"name": "A", "units": 1, "revenue": "0.30"}, {"name": "B", "units": 1, "revenue": "0.3"},
        {"name": "C", "units": 1, "revenue": "999.90"}]}  # fmt: skip
    _, reply = TopProducts(3, "revenue")(result)
    assert reply.index("1. C") < reply.index("2. A") < reply.index("3. B")
