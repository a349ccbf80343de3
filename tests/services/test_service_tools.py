"""The shopper servicing tools through the guard (run_tool): receipt spending from item lines with citations,
extremes and comparisons; cancelling one's own unshipped order (restock + refund), refund status, return window.
Another person's receipt or order is never counted or found."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.base import utcnow
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order, PaymentLog, ReturnItem, ReturnRequest
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.factories import make_paid_order, make_product, make_user
from tests.receipt_factories import receipt


def ok(result: dict) -> dict:
    assert result["ok"], result
    return result["data"]


@pytest.fixture
def spender(app):
    user = make_user("spender@example.com")
    other = make_user("other@example.com")
    receipt(
        user, "Starbucks", date(2026, 3, 2), [("Caffe Latte", "4.50", "Beverages"), ("Croissant", "3.25", "Bakery")]
    )
    receipt(user, "Starbucks", date(2026, 4, 9), [("Americano", "3.10", "Beverages")])
    receipt(
        user,
        "Whole Foods",
        date(2026, 4, 12),
        [("Ground Coffee 500g", "11.99", "Beverages"), ("Whole Milk", "2.49", "Dairy"), ("Steak", "24.00", "Meat")],
    )
    receipt(user, "Whole Foods", date(2018, 6, 1), [("Coffee Beans", "9.00", "Beverages")])
    receipt(user, "Corner Cafe", date(2026, 4, 20), [("Espresso", "2.80", None)], status="failed")  # not read
    receipt(other, "Starbucks", date(2026, 4, 10), [("Caffe Latte", "500.00", "Beverages")])
    return Actor(user=user)


def test_coffee_this_year_adds_the_coffee_item_lines_not_the_receipts(spender):
    data = ok(run_tool("receipts_spending", {"item": "coffee", "date_from": "2026-01-01", "date_to": "2026-11-28"},
                       spender))  # fmt: skip

    assert data["measure"] == "items"
    assert data["by_currency"] == [{"currency": "USD", "total": f"{Decimal('4.50') + Decimal('3.10') + Decimal('11.99')}",
                                    "count": 3}]  # fmt: skip
    assert sorted(s["label"] for s in data["sources"]) == ["Americano", "Caffe Latte", "Ground Coffee 500g"]
    latte = next(s for s in data["sources"] if s["label"] == "Caffe Latte")
    assert latte["citation"].endswith("line 2]") and latte["source_text"] == "Caffe Latte  4.50"
    assert latte["url"] == f"/receipts/{latte['receipt_id']}?field=items.1.total_price"


def test_a_category_sums_only_its_lines_and_an_unknown_one_is_zero_not_everything(spender):
    dairy = ok(run_tool("receipts_spending", {"category": "dairy"}, spender))
    nothing = ok(run_tool("receipts_spending", {"category": "Toys"}, spender))
    unknown = ok(run_tool("receipts_spending", {"item": "sushi"}, spender))

    assert dairy["by_currency"] == [{"currency": "USD", "total": "2.49", "count": 1}]
    assert nothing["by_currency"] == [] and nothing["count"] == 0 and nothing["sources"] == []
    assert unknown["by_currency"] == [] and unknown["count"] == 0


def test_a_merchant_and_period_add_receipt_totals_and_since_is_a_date(spender):
    starbucks = ok(run_tool("receipts_spending", {"merchant": "starbucks"}, spender))
    since = ok(run_tool("receipts_spending", {"date_from": "2019-01-01"}, spender))

    assert starbucks["measure"] == "receipts"
    assert starbucks["by_currency"] == [{"currency": "USD", "total": "10.85", "count": 2}]  # 7.75 + 3.10, not 500
    assert since["by_currency"] == [{"currency": "USD", "total": "49.33", "count": 3}]  # the 2018 receipt is out


def test_groups_by_category_split_the_lines(spender):
    data = ok(run_tool("receipts_spending", {"date_from": "2026-04-01", "date_to": "2026-04-30", "category": "Beverages",
                                              "group_by": "merchant"}, spender))  # fmt: skip

    assert data["groups"] == [{"key": "Whole Foods", "currency": "USD", "total": "11.99", "count": 1},
                              {"key": "Starbucks", "currency": "USD", "total": "3.10", "count": 1}]  # fmt: skip


def test_the_biggest_and_smallest_receipt(spender):
    biggest = ok(run_tool("receipts_extreme", {"which": "largest"}, spender))
    smallest = ok(run_tool("receipts_extreme", {"which": "smallest", "merchant": "Starbucks"}, spender))
    none = ok(run_tool("receipts_extreme", {"which": "largest", "merchant": "Ikea"}, spender))

    assert biggest["found"]["merchant"] == "Whole Foods" and biggest["found"]["value"] == "38.48"
    assert smallest["found"]["value"] == "3.10"
    assert none["found"] is None and none["count"] == 0


def test_month_over_month_compares_the_same_scope(spender):
    data = ok(run_tool("receipts_compare", {"periods": [{"date_from": "2026-04-01", "date_to": "2026-04-30"},
                                                         {"date_from": "2026-03-01", "date_to": "2026-03-31"}],
                                             "merchant": "Starbucks"}, spender))  # fmt: skip

    april, march = data["periods"]
    assert april["by_currency"][0]["total"] == "3.10" and march["by_currency"][0]["total"] == "7.75"
    assert april["change"] == [{"currency": "USD", "difference": "-4.65", "percent": "-60.0"}]


def test_receipt_analytics_need_a_signed_in_owner(spender):
    result = run_tool("receipts_spending", {}, Actor(guest_id="guest-1"))

    assert not result["ok"] and result["error"]["code"] in ("unauthorized", "forbidden")


# Orders ----------------------------------------------------------------------------------------------------------


@pytest.fixture
def buyer(app):
    return Actor(user=make_user("buyer@example.com"))


def stock_of(product) -> int:
    return db.session.get(ProductVariant, product.variants[0].id).stock


def test_cancelling_my_paid_order_restocks_and_refunds_it(buyer):
    product = make_product("Linen Shirt", price="30.00", stock=4)
    order = make_paid_order(buyer, product)
    assert stock_of(product) == 3

    proposed = run_tool("order_cancel_mine", {}, buyer, confirmed=False)
    assert proposed.get("needs_confirmation") and db.session.get(Order, order.id).status == "paid"
    data = ok(run_tool("order_cancel_mine", {"order_id": order.id}, buyer))

    assert data["order"]["status"] == "cancelled" and data["refunded"] == f"{order.total:.2f}"
    assert db.session.get(Order, order.id).status == "cancelled" and stock_of(product) == 4
    refunds = db.session.query(PaymentLog).filter_by(order_id=order.id, kind="refund").all()
    assert [r.amount for r in refunds] == [order.total]


def test_a_shipped_order_cannot_be_cancelled_and_nothing_changes(buyer):
    product = make_product("Linen Shirt", price="30.00", stock=4)
    order = make_paid_order(buyer, product)
    order.status, order.carrier, order.tracking_number = "shipped", "UPS", "1Z-SERVICE-1"
    db.session.commit()

    proposed = run_tool("order_cancel_mine", {}, buyer, confirmed=False)
    direct = run_tool("order_cancel_mine", {"order_id": order.id}, buyer)

    assert proposed["error"]["code"] == direct["error"]["code"] == "invalid_transition"
    assert "already shipped" in direct["error"]["message"]
    assert db.session.get(Order, order.id).status == "shipped" and stock_of(product) == 3


def test_another_persons_order_is_not_found(buyer):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    stranger = Actor(user=make_user("stranger@example.com"))

    for tool in ("order_cancel_mine", "order_refund_status", "order_return_eligibility"):
        result = run_tool(tool, {"order_id": order.id}, stranger)
        assert result["error"]["code"] == "not_found", tool
    assert db.session.get(Order, order.id).status == "paid"


def deliver(order: Order, days_ago: int) -> None:
    order.status, order.delivered_at = "delivered", utcnow() - timedelta(days=days_ago)
    db.session.commit()


def test_return_eligibility_from_the_delivery_date(app, buyer):
    recent = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(recent, 5)
    old = make_paid_order(buyer, make_product("Wool Coat", stock=4))
    deliver(old, 45)
    window = app.config["RETURN_WINDOW_DAYS"]

    yes = ok(run_tool("order_return_eligibility", {"order_id": recent.id}, buyer))
    no = ok(run_tool("order_return_eligibility", {"order_id": old.id}, buyer))

    assert yes["eligible"] and yes["until"] == (recent.delivered_at + timedelta(days=window)).date().isoformat()
    assert not no["eligible"] and no["reason"] == "window_closed"
    assert no["until"] == (old.delivered_at + timedelta(days=window)).date().isoformat()


def test_refund_status_follows_the_pending_return(buyer):
    order = make_paid_order(buyer, make_product("Linen Shirt", stock=4))
    deliver(order, 3)
    make_paid_order(buyer, make_product("Wool Coat", stock=4))  # a newer order with no return
    request = ReturnRequest(order_id=order.id, status="requested")
    request.items.append(ReturnItem(order_item_id=order.items[0].id, quantity=1, reason="too small"))
    db.session.add(request)
    db.session.commit()

    data = ok(run_tool("order_refund_status", {}, buyer))

    assert data["order"]["id"] == order.id and data["state"] == "return_requested"
    assert data["returns"][0]["id"] == request.id and data["returns"][0]["label"] == "Waiting for review"
