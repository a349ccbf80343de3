"""Several machines: two app servers (gunicorn, production settings) behind nginx round-robin (deploy/nginx.conf),
one PostgreSQL database and one Redis. Whatever a shopper does on one server the other one knows: the session,
the cart, the conversation and its pending confirmation, the order, and the rate-limit counts."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import anyio
import httpx2
import pytest
import sqlalchemy as sa
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.live.servers import AppServer, NginxProxy, RedisServer, flask_command, free_port, throwaway_postgres

pytestmark = pytest.mark.live

PASSWORD = "correct horse battery"
SHOPPER = "sam@example.com"
TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


class Shop:
    def __init__(self, database_url: str, servers: list[AppServer], proxy: NginxProxy):
        self.database_url, self.servers, self.proxy = database_url, servers, proxy
        self.engine = sa.create_engine(database_url)

    def query(self, sql: str, **params) -> list:
        with self.engine.connect() as connection:
            return list(connection.execute(sa.text(sql), params))


@pytest.fixture(scope="module")
def shop():
    nginx_port = free_port()
    public_url = f"http://127.0.0.1:{nginx_port}"
    with throwaway_postgres(seed_demo=True) as database_url, RedisServer() as redis:
        flask_command(database_url, "create-user", "--email", SHOPPER, "--password", PASSWORD)
        servers = [
            AppServer(database_url=database_url, redis_url=redis.url, workers=1, public_base_url=public_url,
                      env={"INSTANCE_NAME": f"app-{number}", "TRUSTED_PROXY_HOPS": "1",
                           # All of the test's requests come from 127.0.0.1: the per-account limit is the one shown.
                           "LOGIN_LIMIT_PER_CLIENT": "100 per minute"})
            for number in (1, 2)
        ]  # fmt: skip
        with ThreadPoolExecutor(2) as pool:  # gunicorn's start is mostly the app's import: start both at once
            list(pool.map(AppServer.start, servers))
        proxy = NginxProxy([f"127.0.0.1:{server.port}" for server in servers], port=nginx_port)
        try:
            checked = proxy.check()
            assert checked.returncode == 0, checked.stderr
            with proxy:
                shop = Shop(database_url, servers, proxy)
                yield shop
                shop.engine.dispose()
        finally:
            for server in servers:
                server.stop()


class Browser:
    """A shopper's cookie jar talking to nginx; remembers which server answered each request."""

    def __init__(self, shop: Shop):
        self.http = httpx2.Client(base_url=shop.proxy.url, timeout=30)
        self.served_by: list[str] = []

    def request(self, method: str, path: str, **kwargs) -> httpx2.Response:
        response = self.http.request(method, path, **kwargs)
        assert response.status_code < 500, (response.status_code, response.text[:500])
        self.served_by.append(response.headers["X-Served-By"])
        return response

    def token(self, path: str = "/") -> str:
        return TOKEN.search(self.request("GET", path).text).group(1)

    def post_form(self, path: str, data: dict, *, token_from: str = "/", htmx: bool = False) -> httpx2.Response:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.request("POST", path, data={**data, "csrf_token": self.token(token_from)}, headers=headers)


def alternates(names: list[str]) -> bool:
    return all(first != second for first, second in zip(names, names[1:], strict=False))


def test_nginx_sends_requests_to_each_server_in_turn(shop):
    browser = Browser(shop)
    pages = [browser.request("GET", "/catalog?q=shirt") for _ in range(4)]

    assert all(page.status_code == 200 for page in pages)
    assert set(browser.served_by) == {"app-1", "app-2"} and alternates(browser.served_by)
    assert pages[0].headers["Content-Encoding"] == "gzip"  # nginx compresses the HTML


def test_a_shoppers_journey_alternates_between_the_servers(shop):
    guest_product, guest_size = shop.query(
        "SELECT p.id, v.size FROM products p JOIN product_variants v ON v.product_id = p.id "
        "WHERE p.clothing_type = 'jeans' AND v.stock > 5 ORDER BY p.id, v.id LIMIT 1"
    )[0]
    browser = Browser(shop)

    # A guest fills the cart, then logs in: the guest cart follows into the account.
    added = browser.post_form("/cart/add", {"product_id": guest_product, "size": guest_size, "quantity": 1},
                              token_from=f"/products/{guest_product}")  # fmt: skip
    logged_in = browser.post_form("/login", {"email": SHOPPER, "password": PASSWORD}, token_from="/login")
    cart_page = browser.request("GET", "/cart")
    # The assistant adds to the cart, then proposes the order; the other server approves it.
    chat_added = browser.post_form("/chat/message", {"message": "add 2 large white shirts to my cart"}, htmx=True)
    proposed = browser.post_form("/chat/message", {"message": "checkout and ship to Sam Shopper, 1 Main St, "
                                 f"Springfield, IL 62701, {SHOPPER}"}, htmx=True)  # fmt: skip
    confirmation_id = re.search(r'id="confirm-([0-9a-f]+)"', proposed.text).group(1)
    proposer = browser.served_by[-1]
    token = re.search(r'name="csrf_token" value="([^"]+)"', proposed.text).group(1)  # the Approve form's own
    approved = browser.request("POST", f"/chat/confirm/{confirmation_id}", headers={"HX-Request": "true"},
                               data={"approve": "1", "csrf_token": token})  # fmt: skip
    approver = browser.served_by[-1]
    pay_path = re.search(r'href="(/orders/\d+/pay)"', approved.text).group(1)
    paid = browser.post_form(pay_path, {"card_number": "4242 4242 4242 4242", "expiry": "12/34", "cvc": "123"},
                             token_from=pay_path)  # fmt: skip
    order_page = browser.request("GET", paid.headers["Location"])

    assert added.status_code in (200, 303) and logged_in.status_code == 302
    assert "Your cart" in cart_page.text or "Cart" in cart_page.text
    assert "Added 2 × Relaxed Linen Shirt" in chat_added.text
    assert "Please confirm" in proposed.text and approver != proposer
    assert "is placed" in approved.text and paid.status_code == 303
    assert order_page.status_code == 200 and "Payment received" in order_page.text
    assert alternates(browser.served_by) and set(browser.served_by) == {"app-1", "app-2"}
    (order_id, status, email), = shop.query(
        "SELECT o.id, o.status, o.email FROM orders o JOIN users u ON u.id = o.user_id WHERE u.email = :email",
        email=SHOPPER,
    )  # fmt: skip
    lines = shop.query("SELECT product_id, size, color, quantity FROM order_items WHERE order_id = :id ORDER BY id",
                       id=order_id)  # fmt: skip
    assert status == "paid" and email == SHOPPER
    assert sorted((line.product_id, line.size, line.quantity) for line in lines if line.product_id == guest_product) \
        == [(guest_product, guest_size, 1)]  # fmt: skip
    shirts = [line for line in lines if line.product_id != guest_product]
    assert [(line.size, line.color.lower(), line.quantity) for line in shirts] == [("L", "white", 2)]
    assert f"/orders/{order_id}" in paid.headers["Location"]


def test_failed_logins_are_counted_across_both_servers(shop):
    browser = Browser(shop)
    attempts = [browser.request("POST", "/api/auth/login", json={"email": "someone@example.com", "password": "nope"})
                for _ in range(6)]  # fmt: skip

    # Five per account per minute in all: each server alone saw only three.
    assert [attempt.status_code for attempt in attempts] == [401] * 5 + [429]
    assert alternates(browser.served_by)


def test_mcp_through_nginx(shop):
    async def exchange():
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(20.0)) as http:
            for _ in range(2):  # one session per server: stateless, so either may answer any request
                async with streamable_http_client(shop.proxy.url + "/mcp", http_client=http) as (read, write), \
                        ClientSession(read, write) as session:  # fmt: skip
                    await session.initialize()
                    found = await session.call_tool("search_products", {"query": "white shirt"})
                    assert not found.is_error and found.structured_content["products"]

    async def main():
        with anyio.fail_after(60):
            await exchange()

    anyio.run(main)


def test_a_receipt_sized_upload_passes_nginx(shop):
    browser = Browser(shop)
    token = browser.request("POST", "/api/auth/login", json={"email": SHOPPER, "password": PASSWORD}).json()["token"]

    # 6 MB: far above nginx's default 1 MB body limit and the app's for other routes, within a receipt's 10 MB.
    # (A body the app refuses by its length alone is answered before nginx has sent it: nginx then reports 502.)
    upload = browser.request("POST", "/api/receipts", headers={"Authorization": f"Bearer {token}"},
                             files={"file": ("long.txt", b"MILK 1.00\n" * 600_000, "text/plain")})  # fmt: skip

    assert upload.status_code == 202, (upload.status_code, upload.text[:300])
