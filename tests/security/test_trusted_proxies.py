"""Issue 26 items 7 and 9: one place decides who the client is, for the shop and /mcp alike — the TCP peer, or the
address a proxy in TRUSTED_PROXIES forwarded; anyone else's X-Forwarded-For is ignored."""

from __future__ import annotations

import json

import pytest
from flask import request
from werkzeug.test import Client

from insightshop import create_app
from insightshop.config import ConfigError, load_config
from insightshop.extensions import db
from insightshop.mcp.wsgi_transport import with_mcp
from tests.conftest import _app_for
from tests.factories import make_user

PASSWORD = "correct horse battery"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "Host": "localhost"}


def api_login(client, email, password, *, peer, forwarded=None):
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post("/api/auth/login", json={"email": email, "password": password}, headers=headers,
                       environ_base={"REMOTE_ADDR": peer})  # fmt: skip


def mcp_login(shop, email, password, *, forwarded, peer="127.0.0.1") -> dict:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "auth_login", "arguments": {"email": email, "password": password}}}  # fmt: skip
    answer = Client(shop).post("/mcp", data=json.dumps(body), headers={**MCP_HEADERS, "X-Forwarded-For": forwarded},
                               environ_base={"REMOTE_ADDR": peer}, buffered=True)  # fmt: skip
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()["result"]


@pytest.fixture
def app(database_url, tmp_path):
    """The shop as deployed behind nginx (TRUSTED_PROXY_HOPS=1, TRUSTED_PROXIES left at loopback)."""
    app = _app_for(database_url, TRUSTED_PROXY_HOPS=1)
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.mark.commits
def test_a_direct_caller_rotating_x_forwarded_for_still_hits_the_per_client_limit(client):
    # This caller reached the app server directly, not through the proxy.
    make_user("sam@example.com")

    statuses = [api_login(client, f"nobody{n}@example.com", "wrong", peer="198.51.100.7",
                          forwarded=f"203.0.113.{n + 1}").status_code for n in range(5)]  # fmt: skip
    sixth = api_login(client, "sam@example.com", PASSWORD, peer="198.51.100.7", forwarded="203.0.113.99")

    assert statuses == [401] * 5
    assert sixth.status_code == 429 and sixth.get_json()["error"]["code"] == "rate_limited"


@pytest.mark.commits
def test_from_a_trusted_proxy_the_forwarded_address_is_the_client(client):
    make_user("sam@example.com")

    statuses = [api_login(client, f"nobody{n}@example.com", "wrong", peer="127.0.0.1",
                          forwarded="203.0.113.1").status_code for n in range(5)]  # fmt: skip
    locked_out = api_login(client, "sam@example.com", PASSWORD, peer="127.0.0.1", forwarded="203.0.113.1")
    other_visitor = api_login(client, "sam@example.com", PASSWORD, peer="127.0.0.1", forwarded="203.0.113.2")

    assert statuses == [401] * 5
    assert locked_out.status_code == 429
    assert other_visitor.status_code == 200


def test_trusted_proxies_take_cidr_ranges_and_only_peers_inside_are_believed(tmp_path):
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x", "TRUSTED_PROXY_HOPS": 1,
                      "TRUSTED_PROXIES": ["10.0.0.0/8", "fd00::/8"],
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})  # fmt: skip
    app.add_url_rule("/whoami", "whoami", lambda: f"{request.remote_addr} {request.scheme}")
    headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}

    def seen_from(peer):
        return app.test_client().get("/whoami", headers=headers, environ_base={"REMOTE_ADDR": peer}).text

    assert seen_from("10.1.2.3") == "203.0.113.9 https"
    assert seen_from("fd00::5") == "203.0.113.9 https"
    assert seen_from("127.0.0.1") == "127.0.0.1 http"  # loopback is not in this list
    assert seen_from("198.51.100.7") == "198.51.100.7 http"


def test_trusted_proxies_default_to_loopback_and_refuse_what_is_not_an_address(monkeypatch, tmp_path):
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    assert load_config(str(tmp_path), {"APP_ENV": "testing"})["TRUSTED_PROXIES"] == ["127.0.0.1", "::1"]

    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.1, nginx.internal")
    with pytest.raises(ConfigError, match="TRUSTED_PROXIES"):
        load_config(str(tmp_path), {"APP_ENV": "testing"})


@pytest.mark.commits
def test_behind_the_proxy_mcp_callers_get_login_limits_of_their_own(app):
    make_user("sam@example.com")
    shop = with_mcp(app)  # as gunicorn serves it: /mcp is routed before Flask

    failures = [mcp_login(shop, f"nobody{n}@example.com", "wrong", forwarded="203.0.113.1") for n in range(5)]
    locked_out = mcp_login(shop, "sam@example.com", PASSWORD, forwarded="203.0.113.1")
    other_caller = mcp_login(shop, "sam@example.com", PASSWORD, forwarded="203.0.113.2")

    assert all(result["isError"] for result in failures)
    assert locked_out["isError"] and locked_out["content"][0]["text"].startswith("rate_limited")
    assert not other_caller.get("isError") and other_caller["structuredContent"]["token"]


@pytest.mark.commits
def test_mcp_callers_reaching_the_app_server_directly_cannot_pick_their_address(app):
    make_user("sam@example.com")
    shop = with_mcp(app)

    for n in range(5):
        mcp_login(shop, f"nobody{n}@example.com", "wrong", forwarded=f"203.0.113.{n + 1}", peer="198.51.100.7")
    sixth = mcp_login(shop, "sam@example.com", PASSWORD, forwarded="203.0.113.99", peer="198.51.100.7")

    assert sixth["isError"] and sixth["content"][0]["text"].startswith("rate_limited")
