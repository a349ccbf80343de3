"""Stock hoarding through unpaid orders (issue 26 item 4): a guest's unpaid order holds stock briefly and only up
to per-order and per-client caps (counted from the database's open orders); expired holds go back at once."""

from __future__ import annotations

import re

import pytest

from insightshop.extensions import db
from insightshop.models.orders import Order
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.page_cache import PageCache
from insightshop.web.hold_sweeper import HoldSweeper
from tests.conftest import _app_for
from tests.factories import guest_bearer, make_product, make_user
from tests.routes.test_checkout_pages import checkout as checkout_page
from tests.routes.test_checkout_pages import fill_cart
from tests.security.test_money_checkout import backdate, checkout, guest_cart, stock_of
from tests.security.test_money_payments import ADDRESS, run_in_threads


def add(client, headers: dict, product, quantity: int):
    return client.post("/api/cart", headers=headers, json={"product_id": product.id, "quantity": quantity})


@pytest.mark.parametrize(
    ("setting", "value", "scope"),
    [("GUEST_ORDER_MAX_LINES", 1, "lines_per_order"), ("GUEST_ORDER_MAX_UNITS", 3, "units_per_order"),
     ("GUEST_ORDER_MAX_VALUE", "100.00", "value_per_order")],
)  # fmt: skip
def test_a_guest_order_over_a_per_order_cap_is_refused_and_no_stock_moves(app, client, setting, value, scope):
    app.config[setting] = value
    shirt = make_product("Oxford Shirt", sizes=("L",), stock=10, price="49.00")
    tee = make_product("Plain Tee", sizes=("L",), stock=10, price="20.00")
    headers = guest_cart(client, shirt, 2)
    assert add(client, headers, tee, 2).status_code in (200, 201)

    status, body = checkout(app, headers)

    assert (status, body["error"]["code"]) == (409, "hold_limit"), body
    assert body["error"]["details"][0]["scope"] == scope and "sign in" in body["error"]["message"]
    assert stock_of(shirt) == 10 and stock_of(tee) == 10
    assert db.session.query(Order).count() == 0


def test_default_caps_refuse_a_guest_holding_thirty_units_but_not_a_signed_in_customer(app, client):
    products = [make_product(f"Shirt {n}", sizes=("L",), stock=20, price="10.00") for n in range(3)]
    guest = Actor(guest_id="g-hoard")
    customer = Actor(user=make_user("big@example.com"))
    for actor in (guest, customer):
        for product in products:
            cart.add_item(actor, product.id, 10)
    details = orders.ShippingDetails(**ADDRESS)

    with pytest.raises(orders.Conflict) as refused:
        orders.place_order(guest, details, client="203.0.113.5")
    placed = orders.place_order(customer, details, client="203.0.113.5")

    assert refused.value.code == "hold_limit" and placed.status == "pending" and placed.item_count == 30
    assert [stock_of(product) for product in products] == [10, 10, 10]


def test_a_second_guest_from_the_same_client_cannot_exceed_the_held_cap(app, client):
    app.config["GUEST_HELD_UNITS_PER_CLIENT"] = 12
    product = make_product("Oxford Shirt", sizes=("L",), stock=50)
    first = guest_cart(client, product, 10, address="198.51.100.7")
    second = guest_cart(client, product, 3, address="198.51.100.7")
    elsewhere = guest_cart(client, product, 3, address="192.0.2.44")

    held = checkout(app, first, address="198.51.100.7")
    refused = checkout(app, second, address="198.51.100.7")
    other_client = checkout(app, elsewhere, address="192.0.2.44")

    assert held[0] == 201 and other_client[0] == 201
    assert (refused[0], refused[1]["error"]["code"]) == (409, "hold_limit")
    assert refused[1]["error"]["details"][0]["scope"] == "units_per_client"
    assert stock_of(product) == 50 - 10 - 3


def test_the_held_value_per_client_counts_open_orders_only(app, client):
    app.config["GUEST_HELD_VALUE_PER_CLIENT"] = "150.00"
    product = make_product("Oxford Shirt", sizes=("L",), stock=50, price="49.00")
    first = guest_cart(client, product, 2)  # $98 + shipping + tax
    second = guest_cart(client, product, 1)
    _, held = checkout(app, first)

    refused = checkout(app, second)
    backdate(held["order"]["id"], app.config["ORDER_HOLD_MINUTES"] + 1)  # the first hold runs out
    allowed = checkout(app, second)

    assert (refused[0], refused[1]["error"]["details"][0]["scope"]) == (409, "value_per_client")
    assert allowed[0] == 201 and stock_of(product) == 49


def test_after_the_guest_hold_time_another_shopper_can_buy_the_stock(app, client):
    product = make_product("Last Shirts", sizes=("L",), stock=3)
    hoarder = guest_cart(client, product, 3)
    _, held = checkout(app, hoarder)
    shopper = guest_bearer(client)
    refused = add(client, shopper, product, 1)
    backdate(held["order"]["id"], app.config["ORDER_HOLD_MINUTES"] + 1)

    added = add(client, shopper, product, 2)  # the expired hold is released for this add, no sweep needed
    status, bought = checkout(app, shopper)

    assert (refused.status_code, refused.get_json()["error"]["code"]) == (409, "out_of_stock")
    assert added.status_code == 201 and status == 201, bought
    db.session.expire_all()
    expired = db.session.get(Order, held["order"]["id"])
    assert expired.status == "cancelled" and expired.events[-1].note == "Expired: not paid within 10 minutes"
    assert stock_of(product) == 1


def test_a_guest_hold_is_ten_minutes_and_a_customers_fifteen(app, client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=10)
    guest, customer = Actor(guest_id="g-brief"), Actor(user=make_user("hold@example.com"))
    placed = {}
    for name, actor in (("guest", guest), ("customer", customer)):
        cart.add_item(actor, product.id, 2)
        placed[name] = orders.place_order(actor, orders.ShippingDetails(**ADDRESS)).id
    for order_id in placed.values():
        backdate(order_id, 11)

    assert orders.expire_unpaid() == 1
    db.session.expire_all()
    assert db.session.get(Order, placed["guest"]).status == "cancelled"
    assert db.session.get(Order, placed["customer"]).status == "pending" and stock_of(product) == 8


@pytest.mark.commits
def test_concurrent_guests_of_one_client_cannot_together_pass_the_held_cap(app, client):
    app.config["GUEST_HELD_UNITS_PER_CLIENT"] = 5
    products = [make_product(f"Shirt {n}", sizes=("L",), stock=10) for n in range(4)]  # no shared row lock
    carts = [guest_cart(client, product, 3, address="198.51.100.9") for product in products]

    results = run_in_threads(app, 4, lambda index: checkout(app, carts[index], address="198.51.100.9"))

    statuses = sorted(status for status, _ in results)
    assert statuses == [201, 409, 409, 409], results
    assert all(body["error"]["code"] == "hold_limit" for status, body in results if status == 409)
    assert sorted(stock_of(product) for product in products) == [7, 10, 10, 10]


def test_the_checkout_page_shows_the_hold_limit_on_its_form(app, client):
    app.config["GUEST_ORDER_MAX_UNITS"] = 1
    product = fill_cart(client, quantity=2)

    response, _ = checkout_page(client)

    assert response.status_code == 422 and "sign in to order more" in response.get_data(as_text=True)
    assert stock_of(product) == 5 and db.session.query(Order).count() == 0


# Review 26 finding 1: throwaway (unverified) accounts are capped like guests, and counted with them per client ----


def _order(actor: Actor, product, quantity: int, address: str = "203.0.113.7"):
    cart.clear_cart(actor)
    cart.add_item(actor, product.id, quantity)
    return orders.place_order(actor, orders.ShippingDetails(**ADDRESS), client=address)


def test_unverified_accounts_are_capped_like_guests_and_counted_with_them_per_client(app, client):
    app.config.update(GUEST_ORDER_MAX_UNITS=5, GUEST_HELD_UNITS_PER_CLIENT=8)
    products = [make_product(f"Shirt {n}", sizes=("L",), stock=50, price="10.00") for n in range(6)]
    throwaway = [Actor(user=make_user(f"free{n}@example.com", verified=False)) for n in range(4)]
    verified = Actor(user=make_user("real@example.com"))

    with pytest.raises(orders.Conflict) as too_big:
        _order(throwaway[0], products[0], 6)
    first = _order(throwaway[0], products[0], 4)
    second = _order(throwaway[1], products[1], 4)
    with pytest.raises(orders.Conflict) as third:
        _order(throwaway[2], products[2], 1)
    with pytest.raises(orders.Conflict) as guest:
        _order(Actor(guest_id="g-same-client"), products[3], 1)
    elsewhere = _order(throwaway[2], products[2], 1, address="192.0.2.45")
    customer = _order(verified, products[4], 10)  # a verified customer from the same address is never capped
    throwaway[3].user.is_verified = True  # verifying the email lifts the caps
    db.session.commit()
    now_verified = _order(throwaway[3], products[5], 10)

    assert too_big.value.code == "hold_limit" and too_big.value.details[0]["scope"] == "units_per_order"
    assert "verify your email" in too_big.value.message
    assert [third.value.details[0]["scope"], guest.value.details[0]["scope"]] == ["units_per_client"] * 2
    assert "verify your email" in third.value.message and "sign in" in guest.value.message
    assert all(order.status == "pending" for order in (first, second, elsewhere, customer, now_verified))
    assert [stock_of(product) for product in products] == [46, 46, 49, 50, 40, 40]


def test_an_unverified_accounts_hold_stops_counting_after_its_own_hold_time(app, client):
    app.config.update(GUEST_HELD_UNITS_PER_CLIENT=8)
    products = [make_product(f"Shirt {n}", sizes=("L",), stock=50, price="10.00") for n in range(2)]
    first, second = (Actor(user=make_user(f"free{n}@example.com", verified=False)) for n in range(2))
    held = _order(first, products[0], 8)
    with pytest.raises(orders.Conflict):
        _order(second, products[1], 1)

    backdate(held.id, app.config["UNPAID_ORDER_MINUTES"] - 1)  # still a customer's hold (15, not a guest's 10)
    with pytest.raises(orders.Conflict):
        _order(second, products[1], 1)
    backdate(held.id, app.config["UNPAID_ORDER_MINUTES"] + 1)
    assert _order(second, products[1], 1).status == "pending"


@pytest.mark.commits
def test_concurrent_unverified_accounts_of_one_client_cannot_together_pass_the_held_cap(app, client):
    app.config["GUEST_HELD_UNITS_PER_CLIENT"] = 5
    products = [make_product(f"Shirt {n}", sizes=("L",), stock=10) for n in range(4)]  # no shared row lock
    user_ids = []
    for n, product in enumerate(products):
        user = make_user(f"free{n}@example.com", verified=False)
        cart.add_item(Actor(user=user), product.id, 3)
        user_ids.append(user.id)

    def place(index: int):
        from insightshop.models.accounts import User

        actor = Actor(user=db.session.get(User, user_ids[index]))
        return orders.place_order(actor, orders.ShippingDetails(**ADDRESS), client="198.51.100.9").id

    results = run_in_threads(app, 4, place)

    refused = [result for result in results if isinstance(result, orders.Conflict)]
    assert len(refused) == 3 and all(error.code == "hold_limit" for error in refused), results
    assert sorted(stock_of(product) for product in products) == [7, 10, 10, 10]


# Review 26 finding 6: pages and the API show an expired hold's units for sale again, with no cron job -----------


def _hold_everything(product) -> int:
    guest = Actor(guest_id="g-walked-away")
    cart.add_item(guest, product.id, 3)
    return orders.place_order(guest, orders.ShippingDetails(**ADDRESS)).id


def _add_button(html: str) -> str:
    return re.search(r'<button class="button add-button"[^>]*>[^<]*</button>', html).group(0)


def test_an_expired_hold_is_for_sale_again_on_the_product_page_and_api_without_a_cron_job(app, client):
    app.config["ORDER_HOLD_SWEEP_SECONDS"] = 0  # every request sweeps (the default spaces sweeps 30 s apart)
    product = make_product("Last Shirts", sizes=("L",), stock=3)
    held = _hold_everything(product)
    page = f"/products/{product.id}?size=L"
    before = _add_button(client.get(page).get_data(as_text=True))
    backdate(held, app.config["ORDER_HOLD_MINUTES"] + 1)

    after = _add_button(client.get(page).get_data(as_text=True))
    api = client.get(f"/api/products/{product.id}").get_json()["product"]

    assert "disabled" in before and "Out of stock" in before
    assert "disabled" not in after and "Add to cart" in after
    assert api["stock_quantity"] == 3 and api["in_stock"] is True
    db.session.expire_all()
    assert db.session.get(Order, held).status == "cancelled" and stock_of(product) == 3


def test_a_cached_product_page_shows_an_expired_hold_for_sale_again(database_url, tmp_path):
    shop = _app_for(database_url, PAGE_CACHE=True, ORDER_HOLD_SWEEP_SECONDS=0)
    shop.instance_path = str(tmp_path / "instance")
    shop.extensions["page_cache"] = PageCache(shop.instance_path, redis_url=None, prefix="t:", max_entries=8)
    visitor = shop.test_client()
    with shop.app_context():
        product = make_product("Last Shirts", sizes=("L",), stock=3)
        held, page = _hold_everything(product), f"/products/{product.id}?size=L"
        db.session.remove()
    visitor.get(page)
    stored = visitor.get(page)
    with shop.app_context():
        backdate(held, shop.config["ORDER_HOLD_MINUTES"] + 1)
        db.session.remove()

    again = visitor.get(page)

    with shop.app_context():
        db.engine.dispose()
    assert stored.headers["X-Cache"] == "hit" and "disabled" in _add_button(stored.get_data(as_text=True))
    assert again.headers["X-Cache"] == "miss" and "disabled" not in _add_button(again.get_data(as_text=True))


def test_sweeps_are_spaced_out_per_process(app, monkeypatch):
    calls = []
    monkeypatch.setattr(orders, "release_expired_holds", lambda variant_ids: calls.append(variant_ids) or 0)
    app.config["ORDER_HOLD_SWEEP_SECONDS"] = 30  # the default outside tests
    sweeper = HoldSweeper(lambda environ, start_response: [], app)
    swept_at = []
    for now in (100.0, 110.0, 129.0, 131.0):
        sweeper.clock = lambda now=now: now
        count = len(calls)
        sweeper({}, None)
        swept_at += [now] if len(calls) > count else []

    assert swept_at == [100.0, 131.0] and calls == [None, None]  # every variant, ORDER_HOLD_SWEEP_SECONDS (30) apart
