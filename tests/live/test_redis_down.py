"""Redis stops under traffic: a real gunicorn server keeps serving logins, pages and carts, rate limits hold in
the database meanwhile (logged once), and counting goes back to Redis when it returns."""

from __future__ import annotations

import threading
import time

import httpx2
import pytest
import redis
import sqlalchemy as sa

from tests.live.servers import AppServer, RedisServer, flask_command, throwaway_postgres

pytestmark = pytest.mark.live

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def shop():
    with throwaway_postgres(seed_demo=True) as database_url, RedisServer() as redis_server:
        flask_command(database_url, "create-user", "--email", "kim@example.com", "--password", PASSWORD)
        engine = sa.create_engine(database_url)
        with engine.connect() as connection:
            variant = connection.execute(sa.text(
                "SELECT product_id, size FROM product_variants ORDER BY stock DESC, id LIMIT 1")).one()  # fmt: skip
        engine.dispose()
        # One worker (the shared counters stand in the database during the outage; decorator limits in its memory).
        # Every request here comes from 127.0.0.1: the per-client limit is lifted so the per-account one shows.
        env = {"LOGIN_LIMIT_PER_CLIENT": "1000 per minute", "REDIS_RETRY_SECONDS": "1"}
        with AppServer(database_url=database_url, redis_url=redis_server.url, workers=1, threads=8, env=env) as server:
            yield server, redis_server, variant


class Traffic(threading.Thread):
    """A shopper browsing, logging in and filling a cart in a loop; every status is kept."""

    def __init__(self, url: str, token: str, variant):
        super().__init__(daemon=True)
        self.http = httpx2.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {token}"})
        self.variant = variant
        self.statuses: list[tuple[str, int]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        body = {"product_id": self.variant.product_id, "quantity": 1, "selected_size": self.variant.size}
        while not self.halt.is_set():
            for name, send in (
                ("catalog", lambda: self.http.get("/catalog?q=shirt")),
                (
                    "login",
                    lambda: self.http.post("/api/auth/login", json={"email": "kim@example.com", "password": PASSWORD}),
                ),  # fmt: skip
                ("cart", lambda: self.http.post("/api/cart", json=body)),
                ("cart-clear", lambda: self.http.delete("/api/cart/clear")),
            ):
                self.statuses.append((name, send().status_code))


def login(url: str, email: str, password: str) -> int:
    # Failed logins count per account whether or not the account exists (sam and lee have none).
    return httpx2.post(url + "/api/auth/login", json={"email": email, "password": password}, timeout=30).status_code


def test_the_shop_keeps_serving_while_redis_is_down_and_counts_in_redis_again_after(shop):
    server, redis_server, variant = shop
    token = httpx2.post(server.url + "/api/auth/login", json={"email": "kim@example.com", "password": PASSWORD},
                        timeout=30).json()["token"]  # fmt: skip
    traffic = Traffic(server.url, token, variant)
    traffic.start()
    time.sleep(0.3)

    redis_server.stop()
    during_start = len(traffic.statuses)
    wrong = [login(server.url, "sam@example.com", "wrong password") for _ in range(6)]
    right = login(server.url, "kim@example.com", PASSWORD)
    page = httpx2.get(server.url + "/login", timeout=30)
    time.sleep(0.5)
    during = traffic.statuses[during_start:]

    redis_server.start()
    time.sleep(1.2)  # REDIS_RETRY_SECONDS: the next request checks Redis again
    after = [login(server.url, "lee@example.com", "wrong password") for _ in range(6)]
    traffic.halt.set()
    traffic.join(timeout=30)

    assert wrong == [401] * 5 + [429] and right == 200 and page.status_code == 200
    assert {name for name, _ in during} == {"catalog", "login", "cart", "cart-clear"}
    assert [entry for entry in traffic.statuses if entry[1] >= 500] == []
    assert {status for name, status in during if name == "login"} == {200}
    assert after == [401] * 5 + [429]
    assert any(redis.Redis.from_url(redis_server.url).scan_iter("*shared/login-account*"))  # counted in Redis again
    log = server.log()
    assert log.count("Redis (rate limits) is unreachable") == 1, log[-3000:]
    assert log.count("Redis (rate limits) answers again") == 1
