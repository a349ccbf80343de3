"""The admin tools of issue 28 through the guard (run_tool): database effects, Decimal prices rounded half up, one
proposal that lists every change, and a shopper refused with the exact error code."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.models.orders import Order
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate
from insightshop.utils.agent_executor import run_tool
from tests.admin_helpers import make_admin


@pytest.fixture
def admin(demo_catalog):
    invalidate()
    return Actor(user=make_admin())


@pytest.fixture
def shopper(demo_catalog):
    from tests.factories import make_user

    return Actor(user=make_user("shopper@example.com"))


def stock(product_id: int) -> dict[tuple[str, str], int]:
    db.session.expire_all()
    return {(v.color, v.size): v.stock for v in db.session.get(Product, product_id).variants}


def price(product_id: int) -> Decimal:
    db.session.expire_all()
    return db.session.get(Product, product_id).price


def one_colour(category: str) -> int:
    return next(p.id for p in db.session.query(Product).filter_by(category=category, is_active=True).order_by(Product.id)
                if len(p.available_colors) == 1)  # fmt: skip


def paid_order(email: str, product_id: int, *, days_ago: int = 0) -> Order:
    from tests.factories import make_paid_order, make_user

    order = make_paid_order(Actor(user=make_user(email)), db.session.get(Product, product_id))
    if days_ago:
        order.paid_at = datetime.now(UTC) - timedelta(days=days_ago)
        order.created_at = order.paid_at
        db.session.commit()
    return order


# Stock --------------------------------------------------------------------------------------------------------------


def test_stock_read_gives_each_variants_count(admin):
    before = stock(1)
    result = run_tool("admin_stock_read", {"product_ids": [1], "size": "M"}, admin)
    assert result["ok"]
    [product] = result["data"]["products"]
    assert [(v["color"], v["size"], v["stock"]) for v in product["variants"]] == [
        ("white", "M", before[("white", "M")])
    ]
    assert result["data"]["total_stock"] == before[("white", "M")]


def test_stock_read_by_kind_and_colour_finds_every_department(admin):
    result = run_tool("admin_stock_read", {"clothing_type": "hoodie", "color": "navy", "size": "M"}, admin)
    found = result["data"]["products"]
    assert found and all(v["color"] == "navy" and v["size"] == "M" for p in found for v in p["variants"])
    assert result["data"]["total_stock"] == sum(stock(p["id"])[("navy", "M")] for p in found)


def test_a_relative_stock_change_is_proposed_then_adds_to_the_variant(admin):
    before = stock(1)
    proposal = run_tool("admin_stock_change", {"product_id": 1, "change": 30, "color": "white", "size": "M"}, admin,
                        confirmed=False)  # fmt: skip
    assert proposal["needs_confirmation"] and stock(1) == before

    done = run_tool("admin_stock_change", {"product_id": 1, "change": 30, "color": "white", "size": "M"}, admin)
    assert done["ok"] and done["data"]["variants"] == [
        {"color": "white", "size": "M", "sku": done["data"]["variants"][0]["sku"], "before": before[("white", "M")],
         "stock": before[("white", "M")] + 30}]  # fmt: skip
    after = stock(1)
    assert after[("white", "M")] == before[("white", "M")] + 30
    assert {k: v for k, v in after.items() if k != ("white", "M")} == {
        k: v for k, v in before.items() if k != ("white", "M")
    }


def test_removing_more_than_is_in_stock_is_refused_before_approval(admin):
    before = stock(1)
    too_many = before[("white", "XL")] + 1
    result = run_tool(
        "admin_stock_change", {"product_id": 1, "change": -too_many, "size": "XL"}, admin, confirmed=False
    )
    assert not result["ok"] and result["error"]["code"] == "insufficient_stock" and stock(1) == before


def test_set_to_sets_every_variant_of_the_size(admin):
    done = run_tool("admin_stock_change", {"product_id": 6, "set_to": 11, "size": "L"}, admin)
    assert done["ok"]
    assert {k: v for k, v in stock(6).items() if k[1] == "L"} == {(c, "L"): 11 for c, s in stock(6) if s == "L"}


def test_stock_report_lists_out_of_stock_variants_only(admin):
    variant = db.session.get(Product, 125).variants[0]
    variant.stock = 0
    db.session.commit()
    data = run_tool("admin_stock_report", {"threshold": 0, "clothing_type": "dress"}, admin)["data"]
    assert all(v["stock"] == 0 for v in data["variants"]) and data["total"] == len(data["variants"])
    assert {db.session.get(Product, v["product_id"]).clothing_type for v in data["variants"]} == {"dress"}
    assert (125, variant.color, variant.size) in {(v["product_id"], v["color"], v["size"]) for v in data["variants"]}


# Prices -------------------------------------------------------------------------------------------------------------


def test_a_percent_change_over_a_set_lists_every_product_and_rounds_half_up(admin):
    ids = [p.id for p in db.session.query(Product).filter_by(category="kids", clothing_type="jacket")]
    before = {i: price(i) for i in ids}
    arguments = {"product_ids": ids, "percent": -10}

    proposal = run_tool("admin_price_change", arguments, admin, confirmed=False)
    assert proposal["needs_confirmation"] and {i: price(i) for i in ids} == before

    from insightshop.agent.replies import summarise

    summary = summarise("admin_price_change", arguments, admin)
    expected = {i: (before[i] * Decimal("0.9")).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP") for i in ids}
    assert all(f"(#{i}) ${before[i]:.2f} → ${expected[i]:.2f}" in summary for i in ids)
    assert "half up" in summary

    done = run_tool("admin_price_change", arguments, admin)
    assert done["ok"] and {i: price(i) for i in ids} == expected
    assert [c["new_price"] for c in done["data"]["changes"]] == [f"{expected[i]:.2f}" for i in ids]


def test_a_fixed_amount_and_a_set_to(admin):
    old = price(27)
    assert run_tool("admin_price_change", {"product_ids": [27], "amount": 5}, admin)["ok"]
    assert price(27) == old + 5
    assert run_tool("admin_price_change", {"product_ids": [27], "set_to": 49}, admin)["ok"]
    assert price(27) == Decimal("49.00")


def test_a_price_change_below_a_cent_is_refused_and_changes_nothing(admin):
    before = price(1), price(2)
    result = run_tool("admin_price_change", {"product_ids": [1, 2], "amount": -100000}, admin, confirmed=False)
    assert not result["ok"] and result["error"]["code"] == "validation_error"
    assert (price(1), price(2)) == before


def test_two_rules_at_once_are_refused_by_the_service(admin):
    result = run_tool("admin_price_change", {"product_ids": [1], "percent": 5, "amount": 5}, admin)
    assert not result["ok"] and result["error"]["code"] == "validation_error"


@pytest.mark.parametrize("name, arguments", [
    ("admin_price_change", {"product_ids": [1], "percent": -50}),
    ("admin_stock_change", {"product_id": 1, "change": 5}),
    ("admin_stock_read", {"product_ids": [1]}),
    ("admin_sales_report", {"period": "week"}),
    ("admin_products_find", {"sort": "price_desc"}),
    ("admin_stock_report", {"threshold": 0}),
])  # fmt: skip
def test_a_shopper_is_refused_every_admin_tool_and_nothing_changes(shopper, name, arguments):
    before = price(1), stock(1)
    result = run_tool(name, arguments, shopper)
    assert not result["ok"] and result["error"]["code"] == "forbidden"
    assert (price(1), stock(1)) == before


# Sales, figures, finding --------------------------------------------------------------------------------------------


def test_a_sale_on_one_product_discounts_only_that_product(app, admin):
    from datetime import date

    from insightshop.schemas.products import product_to_dict

    today = date.today()
    result = run_tool("admin_sale_create", {"name": "Coat week", "discount_percentage": 15, "product_ids": [40],
                                            "start_date": today.isoformat(),
                                            "end_date": (today + timedelta(days=6)).isoformat(), "is_active": True},
                      admin)  # fmt: skip
    assert result["ok"] and result["data"]["sale"]["product_ids"] == [40]
    db.session.expire_all()
    with app.test_request_context("/"):
        on_sale, other = (product_to_dict(db.session.get(Product, i)) for i in (40, 41))
    assert on_sale["on_sale"] and Decimal(on_sale["price"]) == (
        Decimal(on_sale["list_price"]) * Decimal("0.85")
    ).quantize(Decimal("0.01"))
    assert not other["on_sale"]


def test_a_sales_report_breaks_down_by_department_and_compares_with_the_week_before(admin):
    paid_order("a@example.com", 1)  # men's
    paid_order("b@example.com", one_colour("women"))
    paid_order("c@example.com", 1, days_ago=9)  # the week before
    data = run_tool("admin_sales_report", {"period": "week", "compare": True, "group_by": "department"}, admin)["data"]
    assert data["orders"] == 2 and data["previous"]["orders"] == 1
    assert {g["key"] for g in data["groups"]} == {"men", "women"}
    assert {g["key"] for g in data["previous"]["groups"]} == {"men"}
    revenue, before = Decimal(data["revenue"]), Decimal(data["previous"]["revenue"])
    assert Decimal(data["revenue_change"]) == revenue - before


def test_the_priciest_coat_comes_first(admin):
    data = run_tool("admin_products_find", {"clothing_type": "coat", "sort": "price_desc", "limit": 1}, admin)["data"]
    coats = db.session.query(Product).filter_by(clothing_type="coat", is_active=True).all()
    assert data["products"][0]["id"] == max(coats, key=lambda p: (p.price, -p.id)).id and data["total"] == len(coats)


def test_inactive_products_are_found_when_asked(admin):
    run_tool("admin_product_delete", {"product_id": 3}, admin)
    data = run_tool("admin_products_find", {"status": "inactive"}, admin)["data"]
    assert [p["id"] for p in data["products"]] == [3]


def test_the_oldest_unshipped_order(admin):
    newer = paid_order("a@example.com", 1)
    older = paid_order("b@example.com", 1, days_ago=3)
    shipped = paid_order("c@example.com", 1, days_ago=5)
    shipped.status = "shipped"
    db.session.commit()
    data = run_tool("admin_orders_list", {"status": "unshipped", "sort": "oldest", "per_page": 1}, admin)["data"]
    assert [o["id"] for o in data["orders"]] == [older.id] and data["pagination"]["total"] == 2
    assert newer.id != older.id
