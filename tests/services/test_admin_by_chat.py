"""Admin by chat: the dashboard tool's figures, one status-change rule for the panel, the API and the assistant,
and the checks that refuse impossible calls before a confirmation is proposed."""

from datetime import timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.base import utcnow
from insightshop.models.orders import Order
from insightshop.services import admin_orders, dashboard, orders
from insightshop.services.actors import Actor
from insightshop.services.errors import DomainError
from insightshop.utils.agent_executor import PRECONDITIONS, run_tool
from tests.admin_helpers import make_admin
from tests.factories import bearer, csrf_token, make_paid_order, make_product, make_user


@pytest.fixture
def admin():
    return Actor(user=make_admin())


@pytest.fixture
def paid_order():
    product = make_product("Oxford Shirt", sizes=("L",), stock=9, price="40.00")
    return make_paid_order(Actor(user=make_user("buyer@example.com")), product)


def paid(price: str, days_ago: int, email: str) -> Order:
    product = make_product("Linen Shirt", sizes=("M",), stock=5, price=price)
    order = make_paid_order(Actor(user=make_user(email)), product)
    order.paid_at = utcnow() - timedelta(days=days_ago)
    db.session.commit()
    return order


def test_dashboard_revenue_is_the_sum_of_orders_paid_in_the_period(admin):
    today_order = paid("30.00", 0, "a@example.com")
    this_week = paid("45.50", 5, "b@example.com")
    this_month = paid("70.00", 20, "c@example.com")
    last_year = paid("90.00", 200, "d@example.com")
    cancelled = paid("55.00", 1, "e@example.com")
    admin_orders.change_status(admin, cancelled.id, "cancelled")  # refunded: no longer revenue
    unpaid_product = make_product("Wool Coat", clothing_type="coat", sizes=("M",), price="150.00")
    from insightshop.services import cart

    shopper = Actor(user=make_user("f@example.com"))
    cart.add_item(shopper, unpaid_product.id, 1)
    orders.place_order(shopper, orders.ShippingDetails(email="f@example.com", shipping_name="F", shipping_address="1 A St",
                                                       shipping_city="X", shipping_state="Y", shipping_zip="1"))  # fmt: skip

    figures = {
        p: run_tool("admin_dashboard", {"period": p}, admin)["data"] for p in ("today", "week", "month", "year", "all")
    }

    assert figures["today"]["revenue"] == f"{today_order.total:.2f}" and figures["today"]["orders"] == 1
    assert figures["week"]["revenue"] == f"{today_order.total + this_week.total:.2f}"
    assert figures["week"]["orders"] == 2
    assert figures["month"]["revenue"] == f"{today_order.total + this_week.total + this_month.total:.2f}"
    every = today_order.total + this_week.total + this_month.total + last_year.total
    assert figures["year"]["revenue"] == figures["all"]["revenue"] == f"{every:.2f}"
    assert figures["all"]["average_order_value"] == f"{(every / 4).quantize(Decimal('0.01')):.2f}"
    assert figures["week"]["by_status"]["cancelled"] == 1 and figures["all"]["by_status"]["pending"] == 1
    # the admin page's 30-day revenue and the tool's month agree: one rule
    assert sum(d.revenue for d in dashboard.revenue_by_day(30)) == Decimal(figures["month"]["revenue"])


def test_low_stock_lists_the_active_variants_at_or_below_the_threshold(admin):
    make_product(
        "Denim Jacket", clothing_type="jacket", sizes=("S", "M", "L"), stock={"white/S": 0, "white/M": 2, "white/L": 9}
    )
    make_product("Hidden Tee", clothing_type="t-shirt", sizes=("M",), stock=1, is_active=False)
    make_product("Plenty Polo", clothing_type="polo", sizes=("M",), stock=50)

    low = run_tool("admin_dashboard", {"period": "week", "low_stock_threshold": 2}, admin)["data"]["low_stock"]
    none = run_tool("admin_dashboard", {"low_stock_threshold": 0}, admin)["data"]["low_stock"]

    assert [(v["name"], v["size"], v["color"], v["stock"]) for v in low] == [
        ("Denim Jacket", "S", "white", 0), ("Denim Jacket", "M", "white", 2)]  # fmt: skip
    assert [(v["size"], v["stock"]) for v in none] == [("S", 0)]


def test_the_dashboard_is_for_admins_only(app):
    refused = run_tool("admin_dashboard", {}, Actor(user=make_user()))

    assert refused["ok"] is False and refused["error"]["code"] == "forbidden"


def test_shipping_without_tracking_is_refused_by_the_panel_the_api_and_the_tool_alike(app, client, admin, paid_order):
    tool = run_tool("admin_order_update_status", {"order_id": paid_order.id, "status": "shipped"}, admin)
    half = run_tool(
        "admin_order_update_status", {"order_id": paid_order.id, "status": "shipped", "carrier": "UPS"}, admin
    )
    api = client.put(f"/api/admin/orders/{paid_order.id}/status", json={"status": "shipped"},
                     headers=bearer(client, "boss@example.com", "an admin password"))  # fmt: skip
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    panel = client.post(f"/admin/orders/{paid_order.id}/status", follow_redirects=True,
                        data={"status": "shipped", "carrier": "", "tracking_number": "",
                              "csrf_token": csrf_token(client, f"/admin/orders/{paid_order.id}")})  # fmt: skip

    assert tool["error"]["code"] == api.get_json()["error"]["code"] == "validation_error"
    assert [d["field"] for d in tool["error"]["details"]] == ["carrier", "tracking_number"]
    assert [d["field"] for d in half["error"]["details"]] == ["tracking_number"]
    assert "Shipping needs a carrier and a tracking number" in panel.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Order, paid_order.id).status == "paid"


def test_the_tool_ships_with_the_carrier_and_tracking_number_given(admin, paid_order):
    result = run_tool("admin_order_update_status", {"order_id": paid_order.id, "status": "shipped", "carrier": "UPS",
                                                    "tracking_number": "1Z999AA10123456784", "note": "Left the dock"}, admin)  # fmt: skip

    db.session.expire_all()
    order = db.session.get(Order, paid_order.id)
    assert result["ok"], result
    assert (order.status, order.carrier, order.tracking_number) == ("shipped", "UPS", "1Z999AA10123456784")
    assert order.events[-1].note == "Left the dock"
    assert orders.track_order("1Z999AA10123456784").id == order.id


def check(name: str, actor: Actor, arguments: dict) -> DomainError | None:
    try:
        PRECONDITIONS[name](actor, arguments)
    except DomainError as error:
        return error
    return None


def test_preconditions_refuse_transitions_that_cannot_happen(admin, paid_order):
    other = make_paid_order(
        Actor(user=make_user("other@example.com")), make_product("Tee", clothing_type="t-shirt", sizes=("M",))
    )
    admin_orders.change_status(admin, paid_order.id, "shipped", carrier="DHL", tracking_number="DHL-1")
    admin_orders.change_status(admin, paid_order.id, "delivered")
    admin_orders.change_status(admin, other.id, "cancelled")

    back_to_pending = check("admin_order_update_status", admin, {"order_id": paid_order.id, "status": "pending"})
    cancelled_shipped = check("admin_order_update_status", admin,
                              {"order_id": other.id, "status": "shipped", "carrier": "UPS", "tracking_number": "X1"})  # fmt: skip
    missing = check("admin_order_update_status", admin, {"order_id": 999, "status": "shipped"})

    assert back_to_pending.code == cancelled_shipped.code == "invalid_transition"
    assert back_to_pending.details[0] == {"from": "delivered", "to": "pending", "allowed": []}
    assert missing.code == "not_found"
    db.session.expire_all()
    assert db.session.get(Order, paid_order.id).status == "delivered"


def test_preconditions_name_the_missing_tracking_fields_and_pass_a_possible_call(admin, paid_order):
    no_tracking = check("admin_order_update_status", admin, {"order_id": paid_order.id, "status": "shipped"})
    possible = check("admin_order_update_status", admin,
                     {"order_id": paid_order.id, "status": "shipped", "carrier": "UPS", "tracking_number": "1Z1"})  # fmt: skip
    processing = check("admin_order_update_status", admin, {"order_id": paid_order.id, "status": "processing"})

    assert no_tracking.code == "validation_error"
    assert [d["field"] for d in no_tracking.details] == ["carrier", "tracking_number"]
    assert possible is None and processing is None
    db.session.expire_all()
    assert db.session.get(Order, paid_order.id).status == "paid"


def test_a_tracking_number_used_by_another_order_is_refused_not_a_server_error(admin, paid_order):
    other = make_paid_order(
        Actor(user=make_user("other@example.com")), make_product("Tee", clothing_type="t-shirt", sizes=("M",))
    )
    admin_orders.change_status(admin, other.id, "shipped", carrier="UPS", tracking_number="1Z-SAME")

    result = run_tool("admin_order_update_status", {"order_id": paid_order.id, "status": "shipped", "carrier": "UPS",
                                                    "tracking_number": "1Z-SAME"}, admin)  # fmt: skip

    assert result["error"]["code"] == "conflict" and result["error"]["details"][0]["field"] == "tracking_number"


def test_preconditions_for_missing_things_and_empty_carts(admin):
    shopper = Actor(user=make_user())

    assert check("admin_product_delete", admin, {"product_id": 404}).code == "not_found"
    assert check("admin_product_update", admin, {"product_id": 404, "price": 3}).code == "not_found"
    assert check("admin_review_delete", admin, {"review_id": 404}).code == "not_found"
    assert check("admin_cart_clear_user", admin, {"user_id": 404}).code == "not_found"
    assert check("checkout_proceed", shopper, {}).code == "cart_empty"
    assert check("cart_clear", shopper, {}).code == "cart_empty"
    product = make_product(sizes=("M",))
    assert check("admin_product_delete", admin, {"product_id": product.id}) is None


def test_the_status_confirmation_says_what_will_change(admin, paid_order):
    from insightshop.agent import replies

    text = replies.summarise("admin_order_update_status", {"order_id": paid_order.id, "status": "shipped",
                                                           "carrier": "UPS", "tracking_number": "1Z77"}, admin)  # fmt: skip

    assert f"#{paid_order.id}" in text and "now paid" in text and "UPS" in text and "1Z77" in text
