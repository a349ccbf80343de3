"""Issue 28, failure class 5 (admin) through the chat service with the offline engine: the admin's words reach the
admin tools (never a shopper's cart or search), references are resolved by a find first, one confirmation lists
every change, the reply after Approve states the new figure, and follow-ups use the brief's admin section."""

from __future__ import annotations

from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.models.sales import Sale
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate
from tests.admin_helpers import make_admin
from tests.agent.test_admin_outcomes import paid_orders, stock
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


def price(product_id: int) -> Decimal:
    db.session.expire_all()
    return db.session.get(Product, product_id).price


def names(turn: dict) -> list[str]:
    return [c["name"] for c in turn["tool_calls"]]


def product_of(**filters) -> Product:
    return db.session.query(Product).filter_by(is_active=True, **filters).order_by(Product.id).first()


# Stock read per variant ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("message", ["how many navy hoodies in M are left", "how many navy hoodies in medium do we have left?",
                                     "hw many navy hoodys in M r left"])  # fmt: skip
def test_how_many_of_a_variant_are_left_gives_the_exact_count(admin, message):
    turn = say(admin, message)
    [call] = turn["tool_calls"]
    assert (
        call["name"] == "admin_stock_read" and call["arguments"]["size"] == "M" and call["arguments"]["color"] == "navy"
    )
    hoodies = db.session.query(Product).filter_by(clothing_type="hoodie").all()
    expected = sum(v.stock for p in hoodies for v in p.variants if (v.color, v.size) == ("navy", "M"))
    assert call["result"]["total_stock"] == expected and str(expected) in turn["reply"]
    assert all(c["type"] != "products" for c in turn["cards"]) and turn["cards"][0]["type"] == "admin_stock"
    assert "add to cart" not in turn["reply"].lower()


def test_the_stock_of_one_named_variant(admin):
    turn = say(admin, "how many of the men's white oxford shirt in XL are left?")
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"product_ids": [1], "size": "XL", "color": "white"} or call["arguments"] == {
        "product_ids": [1], "size": "XL"}  # fmt: skip
    assert f"white / XL: {stock(1)[('white', 'XL')]} in stock" in turn["reply"]


# Relative stock changes ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("message, change", [("add 30 to the men's white oxford shirt stock in M", 30),
                                             ("we received 30 more men's white oxford shirts in M, add them to stock", 30),
                                             ("remove 5 from the men's white oxford shirt M stock", -5),
                                             ("take 5 off the stock of the mens white oxford shirt in medium", -5)])  # fmt: skip
def test_relative_stock_changes_are_one_confirmation_and_the_reply_shows_the_new_stock(admin, message, change):
    before = stock(1)
    turn = say(admin, message)
    [call] = turn["tool_calls"]
    assert (call["name"], call["outcome"]) == ("admin_stock_change", "needs_confirmation")
    assert call["arguments"] == {"product_id": 1, "change": change, "size": "M", "color": "white"}
    new = before[("white", "M")] + change
    [card] = [c for c in turn["cards"] if c["type"] == "confirmation"]
    assert f"{before[('white', 'M')]} → {new}" in card["summary"] and stock(1) == before

    done = approve(admin, turn)
    assert stock(1)[("white", "M")] == new
    assert f"{before[('white', 'M')]} → {new}" in done["reply"]
    assert done["cards"][0]["type"] == "admin_stock" and done["cards"][0]["products"][0]["rows"][0]["stock"] == new


def test_a_relative_change_without_a_variant_asks_which_then_takes_the_answer(admin):
    product = db.session.get(Product, 27)  # the men's fleece hoodie: several colours and sizes
    asked = say(admin, "add 10 to the men's fleece hoodie stock")
    assert asked["tool_calls"] == [] and "which" in asked["reply"].lower()
    turn = say(admin, "black L", conversation=asked["conversation_id"])
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"product_id": product.id, "change": 10, "size": "L", "color": "black"}


def test_restock_the_first_of_those_after_an_out_of_stock_list(admin):
    dress = db.session.get(Product, 125)
    next(v for v in dress.variants if (v.color, v.size) == ("black", "M")).stock = 0
    db.session.commit()
    listed = say(admin, "what's out of stock?")
    [report] = listed["tool_calls"]
    assert report["name"] == "admin_stock_report" and report["arguments"] == {"threshold": 0}
    first = report["result"]["variants"][0]
    assert first["stock"] == 0 and f"{first['name']} (" in listed["reply"] and "out of stock" in listed["reply"]
    assert listed["cards"][0]["type"] == "admin_stock_list"

    turn = say(admin, "restock the first of those with 12", conversation=listed["conversation_id"])
    [call] = turn["tool_calls"]
    assert (call["name"], call["outcome"]) == ("admin_stock_change", "needs_confirmation")
    assert call["arguments"] == {"product_id": first["product_id"], "set_to": 12, "color": first["color"],
                                 "size": first["size"]}  # fmt: skip
    done = approve(admin, turn)
    assert stock(first["product_id"])[(first["color"], first["size"])] == 12 and "0 → 12" in done["reply"]


# Price changes over a set ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("message", ["knock 10% off all kids' jackets", "knock 10% off all kids jackets pls",
                                     "lower the price of every kids jacket by 10 percent"])  # fmt: skip
def test_a_percent_off_a_set_is_one_confirmation_listing_every_product(admin, message):
    jackets = db.session.query(Product).filter_by(category="kids", clothing_type="jacket", is_active=True).all()
    before = {p.id: price(p.id) for p in jackets}
    turn = say(admin, message)
    assert names(turn) == ["admin_products_find", "admin_price_change"]
    proposal = turn["tool_calls"][1]
    assert proposal["outcome"] == "needs_confirmation" and sorted(proposal["arguments"]["product_ids"]) == sorted(
        before
    )
    assert proposal["arguments"]["percent"] == -10
    [card] = [c for c in turn["cards"] if c["type"] == "confirmation"]
    expected = {i: (p * Decimal("0.9")).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP") for i, p in before.items()}
    assert all(f"(#{i}) ${before[i]:.2f} → ${expected[i]:.2f}" in card["summary"] for i in before)
    assert {p.id: price(p.id) for p in jackets} == before

    done = approve(admin, turn)
    assert {i: price(i) for i in before} == expected
    assert all(f"${expected[i]:.2f}" in done["reply"] for i in before) and done["cards"][0]["type"] == "admin_prices"


def test_raise_hoodies_by_five_dollars(admin):
    hoodies = db.session.query(Product).filter_by(clothing_type="hoodie", is_active=True).all()
    before = {p.id: price(p.id) for p in hoodies}
    turn = say(admin, "raise hoodies by $5")
    assert names(turn) == ["admin_products_find", "admin_price_change"]
    assert turn["tool_calls"][1]["arguments"]["amount"] == 5
    approve(admin, turn)
    assert {i: price(i) for i in before} == {i: p + 5 for i, p in before.items()}


# Sales on any scope --------------------------------------------------------------------------------------------------


def test_the_priciest_coat_on_sale_for_a_week(admin):
    coats = db.session.query(Product).filter_by(clothing_type="coat", is_active=True).all()
    priciest = max(coats, key=lambda p: (p.price, -p.id))
    turn = say(admin, "put the priciest coat on sale 15% for a week")
    assert names(turn) == ["admin_products_find", "admin_sale_create"]
    sale = turn["tool_calls"][1]
    assert sale["arguments"]["product_ids"] == [priciest.id] and sale["arguments"]["discount_percentage"] == 15
    approve(admin, turn)
    created = db.session.query(Sale).filter(Sale.product_ids.is_not(None)).one()
    assert created.product_ids == [priciest.id] and (created.end_date - created.start_date).days == 6


def test_a_sale_on_a_kind_the_shop_does_not_sell_says_so(admin):
    turn = say(admin, "put the scarves 20% off")
    assert turn["tool_calls"] == [] and "scarves" in turn["reply"] and "cart" not in turn["reply"].lower()
    assert db.session.query(Sale).count() == 0


def test_a_sale_on_a_department_and_kind(admin):
    turn = say(admin, "put all kids jackets on sale at 25% for the weekend")
    [call] = turn["tool_calls"]
    assert call["name"] == "admin_sale_create"
    assert (call["arguments"]["categories"], call["arguments"]["clothing_types"]) == (["kids"], ["jacket"])


@pytest.mark.parametrize(
    ("message", "name", "scope"),
    [
        ("create a sale called Snow Days, 20% off kids' jackets from Dec 1 to Dec 7 2026", "Snow Days",
         (["kids"], ["jacket"])),
        ("new sale named Black Friday Coats: 30 percent off all coats, november 27 - november 30, 2026",
         "Black Friday Coats", (None, ["coat"])),
    ],
)  # fmt: skip
def test_a_named_and_dated_sale_keeps_its_name_dates_and_scope(admin, message, name, scope):
    turn = say(admin, message)
    [call] = turn["tool_calls"]
    assert call["name"] == "admin_sale_create" and call["arguments"]["name"] == name
    approve(admin, turn)
    created = db.session.query(Sale).one()
    assert (created.name, created.categories, created.clothing_types) == (name, *scope)
    assert created.end_date > created.start_date and created.start_date.year == 2026
    assert "color" not in str(call["arguments"])  # "Black Friday" names the sale; it is no colour


def test_a_named_sale_with_no_percent_asks_for_it_and_creates_nothing(admin):
    turn = say(admin, "create a sale called Winter Warmers from Dec 1 to Dec 24 2026")
    assert turn["tool_calls"] == [] and "discount" in turn["reply"].lower()
    assert db.session.query(Sale).count() == 0


# Figures: the figure asked for, breakdowns and comparisons, follow-ups --------------------------------------------------


def test_revenue_by_department_then_vs_the_week_before(admin):
    paid_orders("jane@example.com", 2)
    turn = say(admin, "revenue by department this month")
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"period": "month", "group_by": "department"}
    assert "By department" in turn["reply"] and "Men's $" in turn["reply"]

    follow = say(admin, "vs the week before?", conversation=turn["conversation_id"])
    [call] = follow["tool_calls"]
    assert call["arguments"] == {"period": "week", "compare": True, "group_by": "department"}
    assert "The 7 days before" in follow["reply"]


def test_revenue_last_month_is_the_calendar_month_then_the_month_before(admin):
    from datetime import UTC, datetime, timedelta

    from insightshop.services.pricing import today

    last_month_day = today().replace(day=1) - timedelta(days=20)  # inside last calendar month, whatever today is
    october, november = paid_orders("jane@example.com", 2)
    october.paid_at = datetime.combine(last_month_day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    db.session.commit()
    month = f"{last_month_day:%B %Y}"

    turn = say(admin, "what was our revenue last month?")
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"period": "last_month"}
    assert f"In {month}: revenue ${october.total:.2f} from 1 paid order" in turn["reply"]  # this month's is not in it

    follow = say(admin, "and vs the month before?", conversation=turn["conversation_id"])
    [call] = follow["tool_calls"]
    assert call["arguments"] == {"period": "last_month", "compare": True}
    before = (last_month_day.replace(day=1) - timedelta(days=1)).replace(day=1)
    assert f"In {before:%B %Y}: $0.00 from 0 paid orders" in follow["reply"]

    both = say(admin, "revenue this month vs last month")
    assert both["tool_calls"][0]["arguments"] == {"period": "month", "compare": True}


def test_week_over_week_and_by_department_follow_up(admin):
    turn = say(admin, "week over week revenue")
    assert turn["tool_calls"][0]["arguments"] == {"period": "week", "compare": True}
    follow = say(admin, "and by department?", conversation=turn["conversation_id"])
    assert follow["tool_calls"][0]["arguments"]["group_by"] == "department"


def test_different_questions_get_different_answers(admin):
    paid_orders("jane@example.com", 1)
    out = say(admin, "what's out of stock?")
    by_department = say(admin, "revenue by department this month")
    week_over_week = say(admin, "week over week revenue")
    assert [t["tool_calls"][0]["name"] for t in (out, by_department, week_over_week)] == [
        "admin_stock_report", "admin_sales_report", "admin_sales_report"]  # fmt: skip
    assert len({out["reply"], by_department["reply"], week_over_week["reply"]}) == 3
    assert "revenue" not in out["reply"].lower() and "out of stock" in out["reply"]
    assert "By department" in by_department["reply"] and "The 7 days before" in week_over_week["reply"]
    assert "stock" not in by_department["reply"].lower() and "stock" not in week_over_week["reply"].lower()


# Finding products and orders ---------------------------------------------------------------------------------------


def test_the_oldest_unshipped_order(admin):
    orders = paid_orders("jane@example.com", 2)
    turn = say(admin, "the oldest unshipped order")
    [call] = turn["tool_calls"]
    assert call["arguments"] == {"status": "unshipped", "sort": "oldest", "per_page": 1}
    assert turn["reply"].startswith(f"The oldest unshipped order is #{min(o.id for o in orders)}")


def test_the_priciest_coat_is_found(admin):
    coats = db.session.query(Product).filter_by(clothing_type="coat", is_active=True).all()
    priciest = max(coats, key=lambda p: (p.price, -p.id))
    turn = say(admin, "whats our priciest coat")
    [call] = turn["tool_calls"]
    assert call["name"] == "admin_products_find" and call["arguments"]["sort"] == "price_desc"
    assert priciest.name in turn["reply"] and f"${priciest.price:.2f}" in turn["reply"]


# A shopper: the same calls, refused ---------------------------------------------------------------------------------


@pytest.mark.parametrize("message", ["knock 10% off all kids' jackets", "put the priciest coat on sale 15% for a week",
                                     "revenue by department this month"])  # fmt: skip
def test_a_shoppers_admin_request_is_refused_and_nothing_changes(shopper, message):
    before = {p.id: p.price for p in db.session.query(Product)}
    turn = say(shopper, message)
    assert turn["tool_calls"] and all(c["outcome"] == "rejected" for c in turn["tool_calls"])
    assert "admins" in turn["reply"]
    db.session.expire_all()
    assert {p.id: p.price for p in db.session.query(Product)} == before and db.session.query(Sale).count() == 0
