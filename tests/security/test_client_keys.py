"""Review of issue 26, finding 5: every per-client limit counts an IPv6 client by its /64 (anyone holding a /64 has
2^64 addresses) and an IPv4-mapped IPv6 address as its IPv4 address — decided once, in web.forwarded."""

from __future__ import annotations

import pytest
from flask import request

from insightshop import create_app
from insightshop.web.auth import client_address
from insightshop.web.forwarded import client_key
from tests.factories import make_user

PASSWORD = "correct horse battery"


def api_login(client, email, password, peer):
    return client.post("/api/auth/login", json={"email": email, "password": password},
                       environ_base={"REMOTE_ADDR": peer})  # fmt: skip


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("", "unknown"),
        (None, "unknown"),
        ("not-an-address", "not-an-address"),
    ],
)
def test_client_keys(address, key):
    assert client_key(address) == key


def test_rotating_addresses_within_one_ipv6_64_still_hits_the_login_limit(client):
    make_user("sam@example.com")

    statuses = [api_login(client, f"nobody{n}@example.com", "wrong", f"2001:db8:1:2::{n + 1:x}").status_code
                for n in range(5)]  # fmt: skip
    same_64 = api_login(client, "sam@example.com", PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:fff0")
    other_64 = api_login(client, "sam@example.com", PASSWORD, "2001:db8:1:3::1")

    assert statuses == [401] * 5
    assert same_64.status_code == 429 and same_64.get_json()["error"]["code"] == "rate_limited"
    assert other_64.status_code == 200


def test_an_ipv4_mapped_address_counts_as_its_ipv4_address(client):
    make_user("sam@example.com")

    statuses = [api_login(client, f"nobody{n}@example.com", "wrong", "::ffff:198.51.100.8").status_code
                for n in range(5)]  # fmt: skip
    as_ipv4 = api_login(client, "sam@example.com", PASSWORD, "198.51.100.8")

    assert statuses == [401] * 5
    assert as_ipv4.status_code == 429


def test_flask_limiter_decorators_count_the_64_too(client):
    # POST /api/auth/password-reset: @limiter.limit("5 per hour")
    statuses = [client.post("/api/auth/password-reset", json={"email": "nobody@example.com"},
                            environ_base={"REMOTE_ADDR": f"2001:db8:9:9::{n + 1:x}"}).status_code
                for n in range(6)]  # fmt: skip

    assert statuses[:5] == [statuses[0]] * 5 and statuses[0] < 400
    assert statuses[5] == 429


def test_behind_a_trusted_proxy_the_forwarded_ipv6_is_keyed_and_remote_addr_stays_whole_for_logs(tmp_path):
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x", "TRUSTED_PROXY_HOPS": 1,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})  # fmt: skip
    app.add_url_rule("/whoami", "whoami", lambda: f"{request.remote_addr} {client_address()}")

    answer = app.test_client().get("/whoami", headers={"X-Forwarded-For": "2001:db8:5:6:7:8:9:a"},
                                   environ_base={"REMOTE_ADDR": "127.0.0.1"})  # fmt: skip

    assert answer.get_data(as_text=True) == "2001:db8:5:6:7:8:9:a 2001:db8:5:6::/64"
