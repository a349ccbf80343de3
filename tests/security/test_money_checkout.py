"""Attacks on stock (issue #10 items 9 and 10): concurrent checkouts of one cart, concurrent cancellations,
stock hoarding with unpaid orders, and bursts of checkouts from one client or one cart."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from insightshop.extensions import db
from insightshop.models.base import utcnow
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order, OrderEvent, OrderItem
from insightshop.services import admin_orders, orders
from insightshop.services.actors import Actor
from insightshop.services.errors import Conflict
from tests.api.test_rate_limit_redis import redis_app  # noqa: F401, F811  (a fixture)
from tests.factories import guest_bearer, make_product, make_user
from tests.security.test_money_payments import ADDRESS, CARD, run_in_threads


def guest_cart(client, product, quantity: int, address: str = "127.0.0.1") -> dict:
    client.environ_base["REMOTE_ADDR"] = address
    headers = guest_bearer(client)
    added = client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": quantity})
    assert added.status_code in (200, 201), added.get_json()
    return headers


def checkout(app, headers: dict, address: str = "127.0.0.1"):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    response = client.post("/api/orders", headers=headers, json=ADDRESS)
    return response.status_code, response.get_json()


def stock_of(product) -> int:
    db.session.expire_all()
    return db.session.get(ProductVariant, product.variants[0].id).stock


def backdate(order_id: int, minutes: int) -> None:
    db.session.execute(
        update(Order).where(Order.id == order_id).values(created_at=utcnow() - timedelta(minutes=minutes))
    )
    db.session.commit()


# Item 9: concurrent checkouts of one cart ----------------------------------------------------------------------


@pytest.mark.commits
def test_five_concurrent_checkouts_of_one_cart_leave_one_open_order_and_take_the_stock_once(app, client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=10)
    headers = guest_cart(client, product, 2)

    responses = run_in_threads(app, 5, lambda _: checkout(app, headers))

    assert sorted(status for status, _ in responses) == [201] * 5, responses
    db.session.expire_all()
    placed = db.session.query(Order).order_by(Order.id).all()
    assert len(placed) == 5
    assert [o.status for o in placed].count("pending") == 1
    for order in placed:
        cancelled = [e for e in order.events if e.status == "cancelled"]
        assert len(cancelled) == (0 if order.status == "pending" else 1)
    assert stock_of(product) == 8


@pytest.mark.commits
def test_concurrent_cancellations_of_one_order_restock_it_once(app):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    shopper = Actor(user=make_user())
    from insightshop.services import cart

    cart.add_item(shopper, product.id, 3)
    order_id = orders.place_order(shopper, orders.ShippingDetails(**ADDRESS)).id
    admin_id = make_user("admin@example.com", admin=True).id

    def cancel(index):
        from insightshop.models.accounts import User

        if index % 2:
            return admin_orders.change_status(Actor(user=db.session.get(User, admin_id)), order_id, "cancelled").status
        return orders.cancel_order(db.session.get(Order, order_id), actor_label="system").status

    results = run_in_threads(app, 8, cancel)

    assert results.count("cancelled") == 1, results
    assert all(isinstance(r, Conflict) and r.code == "invalid_transition" for r in results if r != "cancelled")
    assert stock_of(product) == 5
    assert db.session.query(OrderEvent).filter_by(order_id=order_id, status="cancelled").count() == 1


@pytest.mark.commits
def test_one_cart_racing_other_buyers_never_commits_more_units_than_the_stock(app, client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=10)
    hoarder = guest_cart(client, product, 4, address="10.0.0.1")
    others = [guest_cart(client, product, 1, address=f"10.0.1.{i}") for i in range(8)]

    def act(index):
        if index < 5:
            return checkout(app, hoarder, "10.0.0.1")
        return checkout(app, others[index - 5], f"10.0.1.{index - 5}")

    responses = run_in_threads(app, 13, act)
    for status, data in responses:  # pay every order that is still open
        if status == 201:
            order = db.session.get(Order, data["order"]["id"])
            db.session.refresh(order)
            if order.status == "pending":
                token = {"X-Order-Token": data["order_token"]}
                intent = client.post("/api/payments/create-intent", headers=token, json={"order_id": order.id})
                client.post("/api/payments/offline/confirm", headers=token,
                            json={"payment_intent_id": intent.get_json()["payment_intent_id"], "card_number": CARD})  # fmt: skip

    assert {status for status, _ in responses} <= {201, 409}
    db.session.expire_all()
    live = db.session.query(Order).filter(Order.status != "cancelled").all()
    committed = sum(item.quantity for order in live for item in order.items)
    assert committed <= 10 and stock_of(product) == 10 - committed >= 0
    assert sum(order.items[0].quantity == 4 for order in live) <= 1  # the five checkouts of one cart: one order
    assert all(o.status == "paid" for o in live)


# Item 10: stock hoarding ---------------------------------------------------------------------------------------


def test_an_order_past_its_hold_time_is_expired_by_the_cli_once_and_its_stock_returned(app, client, runner):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    headers = guest_cart(client, product, 2)
    fresh_headers = guest_cart(client, product, 1)
    _, placed = checkout(app, headers)
    _, fresh = checkout(app, fresh_headers)
    backdate(placed["order"]["id"], 31)

    first = runner.invoke(args=["orders", "expire-unpaid"])
    second = runner.invoke(args=["orders", "expire-unpaid"])

    assert "Expired 1 unpaid orders (hold time 10 minutes for guests, 15 for customers)" in first.output
    assert "Expired 0 unpaid orders" in second.output
    db.session.expire_all()
    expired = db.session.get(Order, placed["order"]["id"])
    assert expired.status == "cancelled" and expired.events[-1].note == "Expired: not paid within 10 minutes"
    assert [e.status for e in expired.events].count("cancelled") == 1
    assert db.session.get(Order, fresh["order"]["id"]).status == "pending"
    assert stock_of(product) == 4


def test_the_hold_time_is_configurable(app, client):
    app.config["ORDER_HOLD_MINUTES"] = 5  # a guest's order
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    _, placed = checkout(app, guest_cart(client, product, 2))
    backdate(placed["order"]["id"], 6)

    assert orders.expire_unpaid() == 1
    assert stock_of(product) == 5


def test_an_abandoned_hold_frees_its_units_for_the_next_buyer(app, client):
    product = make_product("Last Shirt", sizes=("L",), stock=1)
    hoarder = guest_cart(client, product, 1)
    buyer = guest_cart(client, product, 1)
    _, held = checkout(app, hoarder)
    refused = checkout(app, buyer)
    backdate(held["order"]["id"], 45)

    status, bought = checkout(app, buyer)

    assert refused[0] == 409 and refused[1]["error"]["code"] == "out_of_stock"
    assert status == 201 and bought["order"]["status"] == "pending"
    db.session.expire_all()
    assert db.session.get(Order, held["order"]["id"]).events[-1].note.startswith("Expired")
    assert stock_of(product) == 0


def test_paying_an_expired_order_is_refused_with_order_expired(app, client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    headers = guest_cart(client, product, 2)
    _, placed = checkout(app, headers)
    order_id = placed["order"]["id"]
    intent = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id}).get_json()
    backdate(order_id, 31)

    paid = client.post("/api/payments/offline/confirm", headers=headers,
                       json={"payment_intent_id": intent["payment_intent_id"], "card_number": CARD})  # fmt: skip
    again = client.post("/api/payments/create-intent", headers=headers, json={"order_id": order_id})

    assert paid.status_code == 409 and paid.get_json()["error"]["code"] == "order_expired"
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "already_paid"
    db.session.expire_all()
    order = db.session.get(Order, order_id)
    assert order.status == "cancelled" and order.paid_at is None
    assert stock_of(product) == 5


@pytest.mark.commits
def test_a_burst_of_anonymous_checkouts_from_one_client_is_refused_after_the_limit(app, client):
    app.config["CHECKOUT_LIMIT_PER_CLIENT"] = "3 per 10 minutes"
    product = make_product("Oxford Shirt", sizes=("L",), stock=50)
    carts = [guest_cart(client, product, 1, address="203.0.113.9") for _ in range(5)]

    responses = [client.post("/api/orders", headers=headers, json=ADDRESS) for headers in carts]

    assert [r.status_code for r in responses] == [201, 201, 201, 429, 429]
    assert responses[3].get_json()["error"]["code"] == "rate_limited"
    assert 1 <= int(responses[3].headers["Retry-After"]) <= 600
    assert db.session.query(Order).count() == 3 and stock_of(product) == 47


@pytest.mark.commits
def test_one_cart_checking_out_from_many_addresses_is_limited_per_cart(app, client):
    app.config["CHECKOUT_LIMIT_PER_OWNER"] = "2 per 10 minutes"
    product = make_product("Oxford Shirt", sizes=("L",), stock=50)
    headers = guest_cart(client, product, 1)

    statuses = [checkout(app, headers, address=f"198.51.100.{i}")[0] for i in range(3)]

    assert statuses == [201, 201, 429]


@pytest.mark.commits
def test_every_checkout_door_shares_the_per_client_limit(app, client):
    app.config["CHECKOUT_LIMIT_PER_CLIENT"] = "1 per 10 minutes"
    product = make_product("Oxford Shirt", sizes=("L",), stock=50)
    first = guest_cart(client, product, 1)
    second = guest_cart(client, product, 1)

    api = client.post("/api/orders", headers=first, json=ADDRESS)
    tool = client.post("/api/tools/checkout_proceed", headers=second, json=ADDRESS)

    assert api.status_code == 201
    assert tool.get_json()["error"]["code"] == "rate_limited"
    assert db.session.query(OrderItem).count() == 1


@pytest.mark.commits
def test_the_checkout_page_shares_the_limit_and_answers_429(app, client):
    from tests.routes.test_checkout_pages import checkout as page_checkout
    from tests.routes.test_checkout_pages import fill_cart

    app.config["CHECKOUT_LIMIT_PER_CLIENT"] = "1 per 10 minutes"
    product = make_product("Other Shirt", sizes=("L",), stock=5)
    client.environ_base["REMOTE_ADDR"] = "127.0.0.1"
    assert client.post("/api/orders", headers=guest_cart(client, product, 1), json=ADDRESS).status_code == 201
    browser = app.test_client()
    fill_cart(browser)

    refused, _ = page_checkout(browser)

    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert db.session.query(Order).count() == 1


def test_a_concurrent_burst_of_checkouts_from_one_client_passes_only_the_limit_in_redis(redis_app):  # noqa: F811
    app, address = redis_app
    app.config["CHECKOUT_LIMIT_PER_CLIENT"] = "3 per 10 minutes"
    product = make_product("Oxford Shirt", sizes=("L",), stock=50)
    client = app.test_client()
    carts = [guest_cart(client, product, 1, address=address) for _ in range(8)]

    responses = run_in_threads(app, 8, lambda index: checkout(app, carts[index], address))

    assert sorted(status for status, _ in responses) == [201] * 3 + [429] * 5
    assert stock_of(product) == 47


@pytest.mark.commits
def test_concurrent_approvals_of_one_return_restock_and_refund_once(app):
    from insightshop.models.accounts import User
    from insightshop.models.orders import PaymentLog
    from insightshop.services import cart, returns
    from insightshop.services.payments import offline

    product = make_product("Oxford Shirt", sizes=("L",), stock=5)
    shopper = Actor(user=make_user())
    cart.add_item(shopper, product.id, 2)
    order = orders.place_order(shopper, orders.ShippingDetails(**ADDRESS))
    offline.create_intent(order)
    offline.confirm(order, CARD)
    for status in ("processing", "shipped", "delivered"):
        orders.set_status(order, status, actor_label="admin")
    request_id = returns.request_return(
        shopper, order.id, [{"order_item_id": order.items[0].id, "quantity": 1, "reason": "Too small"}]
    ).id
    admin_id = make_user("admin@example.com", admin=True).id

    results = run_in_threads(app, 6, lambda _: returns.decide_return(
        Actor(user=db.session.get(User, admin_id)), request_id, True, "OK").status)  # fmt: skip

    assert results.count("approved") == 1, results
    assert all(isinstance(r, Conflict) and r.code == "invalid_transition" for r in results if r != "approved")
    assert stock_of(product) == 4
    assert db.session.query(PaymentLog).filter_by(order_id=order.id, kind="refund").count() == 1
