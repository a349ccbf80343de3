"""Concurrency under the real server on PostgreSQL (issue 15 part 5): gunicorn with several workers and threads,
requests released together through the JSON API, the results read back from the database itself."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest

from tests.live.private_postgres import make_products, query
from tests.live.servers import AppServer, throwaway_postgres
from tests.stripe_recorded import intent_event, signed

pytestmark = pytest.mark.live

WEBHOOK_SECRET = "whsec_live_concurrency"
ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip
# Fifty shoppers from one address: the per-address limits (guest tokens, checkouts) are not what is tested here.
GENEROUS_LIMITS = {"GUEST_LIMIT_PER_CLIENT": "1000 per minute", "CHECKOUT_LIMIT_PER_CLIENT": "1000 per minute",
                   "CHECKOUT_LIMIT_PER_OWNER": "1000 per minute", "GUEST_HELD_UNITS_PER_CLIENT": "100000",
                   "GUEST_HELD_VALUE_PER_CLIENT": "1000000"}  # fmt: skip


@pytest.fixture(scope="module")
def shop():
    with throwaway_postgres() as url:
        last_ten, busy = make_products(
            url,
            {"name": "Last Ten Tee", "clothing_type": "t-shirt", "sizes": ("M",), "stock": 10, "price": "20.00"},
            {"name": "Busy Line Shirt", "sizes": ("L",), "stock": 200, "price": "30.00"},
        )
        # Stripe keys make the webhook route live; nothing here calls Stripe itself (no intent is created).
        env = {
            **GENEROUS_LIMITS,
            "STRIPE_SECRET_KEY": "sk_test_live_concurrency",
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        }
        with AppServer(database_url=url, workers=2, threads=8, env=env) as server, \
                httpx2.Client(base_url=server.url, timeout=60, limits=httpx2.Limits(max_connections=100)) as http:  # fmt: skip
            yield {"url": url, "server": server, "http": http, "last_ten": last_ten, "busy": busy}


def all_at_once(count: int, work) -> list:
    """work(index) in `count` threads released together by a barrier; the results in index order."""
    barrier = threading.Barrier(count)

    def run(index: int):
        barrier.wait(timeout=30)
        return work(index)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def guest(http) -> dict:
    response = http.post("/api/auth/guest")
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def add_to_cart(http, headers: dict, product: dict, quantity: int = 1) -> dict:
    response = http.post("/api/cart", headers=headers, json={"product_id": product["id"], "quantity": quantity})
    assert response.status_code == 201, response.text
    return response.json()["item"]


def test_fifty_checkouts_for_the_last_ten_units_give_ten_orders_and_forty_clean_409s(shop):
    http, product = shop["http"], shop["last_ten"]
    shoppers = [guest(http) for _ in range(50)]
    for headers in shoppers:
        add_to_cart(http, headers, product)

    answers = all_at_once(50, lambda n: http.post("/api/orders", headers=shoppers[n], json=ADDRESS))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201] * 10 + [409] * 40, [a.text for a in answers if a.status_code not in (201, 409)]
    refused = [answer.json()["error"] for answer in answers if answer.status_code == 409]
    assert {error["code"] for error in refused} == {"out_of_stock"} and all(error["message"] for error in refused)
    (stock,) = query(shop["url"], "SELECT stock FROM product_variants WHERE id = %s", product["variant_ids"][0])
    (orders, units) = query(shop["url"], "SELECT count(DISTINCT order_id), coalesce(sum(quantity), 0) "
                                         "FROM order_items WHERE variant_id = %s", product["variant_ids"][0])  # fmt: skip
    assert (stock, orders, units) == (0, 10, 10)


def test_concurrent_quantity_updates_of_one_line_end_on_a_requested_value(shop):
    http = shop["http"]
    headers = guest(http)
    item = add_to_cart(http, headers, shop["busy"])
    wanted = [1 + n % 10 for n in range(20)]

    answers = all_at_once(20, lambda n: http.patch(f"/api/cart/{item['id']}", headers=headers,
                                                   json={"quantity": wanted[n]}))  # fmt: skip

    assert [a.status_code for a in answers] == [200] * 20, [a.text for a in answers if a.status_code != 200]
    lines = http.get("/api/cart", headers=headers).json()["cart"]["items"]
    assert len(lines) == 1 and lines[0]["id"] == item["id"] and lines[0]["quantity"] in wanted
    (rows, quantity) = query(shop["url"], "SELECT count(*), max(quantity) FROM cart_items WHERE variant_id = %s "
                                          "AND guest_id IS NOT NULL AND id = %s", shop["busy"]["variant_ids"][0], item["id"])  # fmt: skip
    assert (rows, quantity) == (1, lines[0]["quantity"])


def test_the_same_idempotency_key_ten_times_at_once_places_one_order(shop):
    http = shop["http"]
    headers = guest(http)
    add_to_cart(http, headers, shop["busy"], quantity=2)
    keyed = {**headers, "Idempotency-Key": "live-checkout-000001"}

    answers = all_at_once(10, lambda _: http.post("/api/orders", headers=keyed, json=ADDRESS))

    assert sorted(a.status_code for a in answers) == [200] * 9 + [201], [a.text for a in answers]
    assert len({a.json()["order"]["id"] for a in answers}) == 1
    assert sorted(a.json()["replayed"] for a in answers) == [False] + [True] * 9
    order_id = answers[0].json()["order"]["id"]
    (count,) = query(shop["url"], "SELECT count(*) FROM orders WHERE idempotency_key LIKE %s", "%:live-checkout-000001")
    (units,) = query(shop["url"], "SELECT sum(quantity) FROM order_items WHERE order_id = %s", order_id)
    assert (count, units) == (1, 2)


def test_a_payment_webhook_delivered_ten_times_at_once_is_applied_once(shop):
    http = shop["http"]
    headers = guest(http)
    add_to_cart(http, headers, shop["busy"])
    order = http.post("/api/orders", headers=headers, json=ADDRESS).json()["order"]
    cents = int(order["total"].replace(".", ""))
    body, signature = signed(intent_event("evt_live_storm", "payment_intent.succeeded", "pi_live_storm", cents,
                                          order["id"]), WEBHOOK_SECRET)  # fmt: skip

    answers = all_at_once(10, lambda _: http.post("/api/payments/webhook", content=body,
                                                  headers={"Stripe-Signature": signature, "Content-Type": "application/json"}))  # fmt: skip

    assert [a.status_code for a in answers] == [200] * 10, [a.text for a in answers]
    assert sorted(a.json()["duplicate"] for a in answers) == [False] + [True] * 9
    assert http.get(f"/api/orders/{order['id']}", headers=headers).json()["order"]["status"] == "paid"
    (logs,) = query(shop["url"], "SELECT count(*) FROM payment_logs WHERE event_id = 'evt_live_storm'")
    (paid_events,) = query(shop["url"], "SELECT count(*) FROM order_events WHERE order_id = %s AND status = 'paid'",
                           order["id"])  # fmt: skip
    assert (logs, paid_events) == (1, 1)
