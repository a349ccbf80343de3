"""Issue #10 items 15, 13 (outbox paths) and 14 (no-store on authenticated JSON, MCP bearer tokens): development
conveniences stay on the developer's machine, and credentials never turn into anonymous access or cached pages."""

import os
import sys
from pathlib import Path

import anyio
import httpx2
import pytest

from insightshop.mcp.server import asgi_app
from insightshop.services import api_tokens
from insightshop.services.mail import list_outbox
from tests.conftest import TEST_SECRET
from tests.factories import bearer, csrf_token, guest_bearer, make_user
from tests.mcp.test_mcp_server import LiveASGI

FLASK = str(Path(sys.executable).with_name("flask"))


@pytest.fixture
def mailed(client):
    make_user("sam@example.com")
    client.post("/api/auth/password-reset", json={"email": "sam@example.com"})
    [message] = list_outbox()
    return message


def test_the_outbox_is_served_to_loopback_clients_in_development(app, client, mailed):
    app.config["APP_ENV"] = "development"
    ipv6 = app.test_client()
    ipv6.environ_base["REMOTE_ADDR"] = "::1"

    assert client.get("/dev/outbox").status_code == 200
    assert "/reset-password/" in client.get(f"/dev/outbox/{mailed.name}").get_data(as_text=True)
    assert ipv6.get("/dev/outbox").status_code == 200


@pytest.mark.parametrize("address", ["10.0.0.7", "192.168.1.20", "203.0.113.9", "2001:db8::1"])
def test_the_outbox_is_404_to_anyone_else(app, mailed, address):
    app.config["APP_ENV"] = "development"
    visitor = app.test_client()
    visitor.environ_base["REMOTE_ADDR"] = address

    assert visitor.get("/dev/outbox").status_code == 404
    assert visitor.get(f"/dev/outbox/{mailed.name}").status_code == 404


def test_the_outbox_is_404_in_production_and_with_a_mail_server(app, client, mailed):
    app.config["APP_ENV"] = "production"
    assert client.get("/dev/outbox").status_code == 404
    app.config["APP_ENV"] = "development"
    app.config["MAIL_SERVER"] = "smtp.example.com"
    assert client.get(f"/dev/outbox/{mailed.name}").status_code == 404


@pytest.mark.parametrize(
    "path",
    ["/dev/outbox/%2e%2e", "/dev/outbox/..", "/dev/outbox/%2e%2e%2fsecret_key", "/dev/outbox/..%2f..%2fsecret_key",
     "/dev/outbox/.", "/dev/outbox/%00", "/dev/outbox/nothing.eml", "/dev/outbox/sub/dir.eml", "/dev/outbox/%2fetc%2fpasswd"],
)  # fmt: skip
def test_outbox_path_tricks_are_404_never_500(client, mailed, path):
    response = client.get(path, follow_redirects=True)  # "//etc" is first redirected to "/etc"

    assert response.status_code == 404
    assert "/reset-password/" not in response.get_data(as_text=True)


def test_run_py_never_starts_the_werkzeug_debugger():
    source = (Path(__file__).parents[2] / "run.py").read_text()

    assert "use_debugger=False" in source and "debug=False" in source
    assert "debug=True" not in source


def test_authenticated_json_is_never_cached(app, client):
    make_user("sam@example.com")
    headers = bearer(app.test_client(), "sam@example.com")
    browser = app.test_client()
    browser.post("/login", data={"email": "sam@example.com", "password": "correct horse battery",
                                 "csrf_token": csrf_token(browser, "/login")})  # fmt: skip

    with_token = client.get("/api/auth/me", headers=headers)
    with_session = browser.get("/api/auth/me")
    guest = client.get("/api/cart", headers=guest_bearer(app.test_client()))
    refused = client.get("/api/auth/me", headers={"Authorization": "Bearer not-a-token"})
    anonymous = app.test_client().get("/api/products")

    assert with_token.status_code == 200 and with_token.headers["Cache-Control"].startswith("no-store")
    assert with_session.status_code == 200 and with_session.headers["Cache-Control"].startswith("no-store")
    assert guest.headers["Cache-Control"].startswith("no-store")
    assert refused.headers["Cache-Control"].startswith("no-store")
    assert "no-store" not in anonymous.headers.get("Cache-Control", "")


def test_a_login_answer_carrying_a_token_is_not_cached(client):
    make_user("sam@example.com")
    response = client.post("/api/auth/login", json={"email": "sam@example.com", "password": "correct horse battery"})

    assert response.status_code == 200
    assert response.headers["Cache-Control"].startswith("no-store")


def _mcp_post(base: str, token: str) -> httpx2.Response:
    async def main():
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(20.0)) as http:
            return await http.post(
                base + "/mcp",
                headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
                         "Content-Type": "application/json"},
                json={"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "t", "version": "1"}}},
            )  # fmt: skip

    return anyio.run(main)


@pytest.mark.commits
def test_mcp_over_http_answers_401_to_a_revoked_an_expired_or_a_forged_token(app):
    user = make_user("sam@example.com")
    revoked, record = api_tokens.issue_token(user)
    api_tokens.revoke_token(record)
    stale, _ = api_tokens.issue_token(user)
    from insightshop.services import accounts

    accounts.log_out_everywhere(user)
    good, _ = api_tokens.issue_token(user)

    with LiveASGI(asgi_app(app)) as live:
        base = f"http://127.0.0.1:{live.port}"
        answers = {name: _mcp_post(base, token) for name, token in
                   (("revoked", revoked), ("stale", stale), ("forged", "eyJ.not.a.token"), ("good", good))}  # fmt: skip

    for name in ("revoked", "stale", "forged"):
        response = answers[name]
        assert response.status_code == 401, name
        assert response.json()["error"]["code"] in ("token_revoked", "token_invalid"), name
        assert "Bearer" in response.headers["WWW-Authenticate"]
    assert answers["good"].status_code == 200


def test_mcp_stdio_refuses_to_start_with_a_bad_token(app, database_url):
    import subprocess

    user = make_user("sam@example.com")
    token, record = api_tokens.issue_token(user)
    api_tokens.revoke_token(record)
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": TEST_SECRET, "APP_ENV": "testing"}

    result = subprocess.run([FLASK, "--app", "insightshop", "mcp", "stdio", "--token", token], env=env,
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)  # fmt: skip

    assert result.returncode == 1
    assert "The MCP token was refused (token_revoked)" in result.stderr
    assert result.stdout == ""
