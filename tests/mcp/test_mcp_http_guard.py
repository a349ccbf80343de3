"""Issue 26 items 1 and 10: /mcp as gunicorn serves it (insightshop.wsgi: McpOnWsgi) cannot hold the shop's threads
— no GET stream, a cap on requests in flight in total and per client, a deadline per request — and answers 503 with
Retry-After while the database is unreachable. tests/live/test_mcp_streams.py holds real streams under gunicorn."""

from __future__ import annotations

import json
import logging
import runpy
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from werkzeug.test import Client

from insightshop import create_app
from insightshop.extensions import db
from insightshop.mcp import http_guard
from insightshop.mcp import server as mcp_server
from insightshop.mcp.wsgi_transport import with_mcp
from insightshop.services import api_tokens
from tests.conftest import TEST_SECRET
from tests.factories import make_user
from tests.live.servers import free_port

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "Host": "localhost"}


def tool_call(name="search_products", arguments=None, request_id=1) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments or {"query": "shirt"}}})  # fmt: skip


def post(client: Client, body: str, *, address="127.0.0.1", headers=None):
    # buffered: the answer is read and closed at once, as gunicorn does (closing gives the request's place back)
    return client.post("/mcp", data=body, headers={**HEADERS, **(headers or {})},
                       environ_base={"REMOTE_ADDR": address}, buffered=True)  # fmt: skip


def in_thread(work) -> tuple[threading.Thread, list]:
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(work()), daemon=True)
    thread.start()
    return thread, answers


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "OPTIONS", "HEAD"])
def test_anything_but_post_is_405_at_once_and_never_reaches_the_sdk(app, method):
    shop = with_mcp(app)

    # A thread, so that the SSE stream the SDK used to serve on GET (it never ends) fails the test, not the run.
    thread, answers = in_thread(lambda: Client(shop).open("/mcp", method=method, headers=HEADERS))
    thread.join(timeout=10)

    assert answers, f"{method} /mcp did not answer"
    assert answers[0].status_code == 405 and answers[0].headers["Allow"] == "POST"
    if method != "HEAD":
        assert answers[0].get_json()["error"]["data"]["code"] == "method_not_allowed"
    assert shop._bridge is None  # the SDK's event loop was never started for it


@pytest.fixture
def blocking_tool(monkeypatch):
    """Every MCP tool call waits until the test lets it go (a slow tool, a tool waiting on Claude)."""
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_call(token, name, arguments):
        started.release()
        release.wait(timeout=20)
        return {"ok": True, "data": {"done": True}}

    monkeypatch.setattr(mcp_server, "call_tool_as", slow_call)
    yield started, release
    release.set()


def test_requests_in_flight_are_capped_per_client_and_in_total_with_retry_after(app, blocking_tool):
    started, release = blocking_tool
    app.config.update(MCP_MAX_CONCURRENT=2, MCP_MAX_CONCURRENT_PER_CLIENT=1, MCP_REQUEST_TIMEOUT_SECONDS=20)
    shop = with_mcp(app)
    first, first_answer = in_thread(lambda: post(Client(shop), tool_call(), address="10.9.0.1"))
    assert started.acquire(timeout=10)

    same_client = post(Client(shop), tool_call(), address="10.9.0.1")
    second, second_answer = in_thread(lambda: post(Client(shop), tool_call(), address="10.9.0.2"))
    assert started.acquire(timeout=10)
    third_client = post(Client(shop), tool_call(), address="10.9.0.3")
    release.set()
    first.join(timeout=10), second.join(timeout=10)

    assert same_client.status_code == 429 and same_client.headers["Retry-After"] == "1"
    assert same_client.get_json()["error"]["data"]["code"] == "rate_limited"
    assert third_client.status_code == 503 and third_client.headers["Retry-After"] == "1"
    assert first_answer[0].status_code == second_answer[0].status_code == 200
    assert shop.gate.limits.in_flight == 0  # every place was given back
    assert post(Client(shop), "{}", address="10.9.0.1").status_code != 429


def test_a_request_past_its_deadline_is_answered_503_and_keeps_its_place_until_the_tool_ends(app, blocking_tool):
    started, release = blocking_tool
    app.config.update(MCP_REQUEST_TIMEOUT_SECONDS=1, MCP_MAX_CONCURRENT=1)
    shop = with_mcp(app)

    began = time.monotonic()
    answer = post(Client(shop), tool_call(request_id=7))
    waited = time.monotonic() - began
    still_running = shop.gate.limits.in_flight
    refused_meanwhile = post(Client(shop), tool_call(), address="10.9.0.4")
    release.set()
    deadline = time.monotonic() + 10
    while shop.gate.limits.in_flight and time.monotonic() < deadline:
        time.sleep(0.02)

    assert answer.status_code == 503 and answer.headers["Retry-After"] and waited < 5
    assert answer.get_json()["id"] == 7 and answer.get_json()["error"]["data"]["code"] == "unavailable"
    assert still_running == 1 and refused_meanwhile.status_code == 503  # the tool still ran: no second one
    assert shop.gate.limits.in_flight == 0


def test_bodies_are_bounded_and_must_arrive_whole(app):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    shop = with_mcp(app)

    too_large = post(Client(shop), json.dumps({"padding": "x" * 2000}))
    # The client says 900 bytes and sends fewer, then nothing: the thread gives up instead of waiting for the rest.
    cut_short = Client(shop).post("/mcp", data=tool_call(), headers=HEADERS, environ_overrides={"CONTENT_LENGTH": "900"},
                                  buffered=True)  # fmt: skip

    assert too_large.status_code == 413 and too_large.get_json()["error"]["data"]["code"] == "payload_too_large"
    assert cut_short.status_code == 408
    assert shop.gate.limits.in_flight == 0


@pytest.fixture
def unreachable_shop():
    # Nothing listens on this port: every connection attempt is refused, as while PostgreSQL is stopped.
    url = f"postgresql+psycopg://root@127.0.0.1:{free_port()}/insightshop"
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": TEST_SECRET, "SQLALCHEMY_DATABASE_URI": url})
    yield with_mcp(app)
    with app.app_context():
        db.engine.dispose()


def test_with_the_database_unreachable_a_tool_call_is_503_with_retry_after_and_logged(unreachable_shop, caplog):
    caplog.set_level(logging.WARNING, logger="insightshop")

    answer = post(Client(unreachable_shop), tool_call(request_id=42))

    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    body = answer.get_json()
    assert body["jsonrpc"] == "2.0" and body["id"] == 42 and body["error"]["data"]["code"] == "service_unavailable"
    assert "psycopg" not in answer.get_data(as_text=True)
    assert any("Database unavailable" in record.getMessage() for record in caplog.records)


def test_with_the_database_unreachable_a_bearer_token_check_is_503_too(app, unreachable_shop):
    token, _ = api_tokens.issue_token(make_user("sam@example.com"))  # signed with the same secret

    answer = post(Client(unreachable_shop), tool_call("cart_show", {}), headers={"Authorization": f"Bearer {token}"})

    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert answer.get_json()["error"]["data"]["code"] == "service_unavailable"


# Review of issue 26: findings 3, 5, 14 and 15.


@pytest.mark.commits
def test_callers_with_valid_tokens_behind_one_address_each_get_their_own_per_client_cap(app, blocking_tool):
    # A connector (or a NAT'd office) calls /mcp for several shoppers from one address.
    started, release = blocking_tool
    app.config.update(MCP_MAX_CONCURRENT=4, MCP_MAX_CONCURRENT_PER_CLIENT=1, MCP_REQUEST_TIMEOUT_SECONDS=20)
    ann, bob = make_user("ann@example.com"), make_user("bob@example.com")
    ann_token, _ = api_tokens.issue_token(ann)
    ann_second_token, _ = api_tokens.issue_token(ann)
    bob_token, _ = api_tokens.issue_token(bob)
    shop = with_mcp(app)

    def as_(token):
        return lambda: post(Client(shop), tool_call(), address="10.9.0.1", headers={"Authorization": f"Bearer {token}"})

    first, first_answer = in_thread(as_(ann_token))
    assert started.acquire(timeout=10)
    second, second_answer = in_thread(as_(bob_token))
    second_started = started.acquire(timeout=10)
    same_principal = as_(ann_second_token)()  # the same shopper with another token: still one client
    anonymous = post(Client(shop), "{}", address="10.9.0.1")  # the address itself has no request in flight
    invalid = post(Client(shop), tool_call(), address="10.9.0.1", headers={"Authorization": "Bearer forged"})
    release.set()
    first.join(timeout=10), second.join(timeout=10)

    assert second_started, "a second shopper behind the same address was refused"
    assert first_answer[0].status_code == second_answer[0].status_code == 200
    assert same_principal.status_code == 429
    assert anonymous.status_code not in (429, 503)
    assert invalid.status_code == 401
    assert shop.gate.limits.in_flight == 0


def test_an_ipv6_caller_is_one_client_across_its_64(app, blocking_tool):
    started, release = blocking_tool
    app.config.update(MCP_MAX_CONCURRENT=4, MCP_MAX_CONCURRENT_PER_CLIENT=1, MCP_REQUEST_TIMEOUT_SECONDS=20)
    shop = with_mcp(app)
    first, first_answer = in_thread(lambda: post(Client(shop), tool_call(), address="2001:db8:1:2::1"))
    assert started.acquire(timeout=10)

    same_64 = post(Client(shop), tool_call(), address="2001:db8:1:2:9:9:9:9")
    mapped = post(Client(shop), "{}", address="::ffff:10.9.0.5")
    release.set()
    first.join(timeout=10)

    assert first_answer[0].status_code == 200
    assert same_64.status_code == 429 and same_64.get_json()["error"]["data"]["code"] == "rate_limited"
    assert mapped.status_code != 429
    assert shop.gate.limits.in_flight == 0


def test_a_post_without_content_length_is_411_and_never_reaches_the_sdk(app):
    shop = with_mcp(app)

    # A chunked body: no Content-Length, so its size is unknown until read (it used to be read as empty).
    chunked = Client(shop).post("/mcp", data=tool_call(), headers={**HEADERS, "Transfer-Encoding": "chunked"},
                                environ_overrides={"CONTENT_LENGTH": ""}, buffered=True)  # fmt: skip

    assert chunked.status_code == 411
    assert chunked.get_json()["error"]["data"]["code"] == "bad_request"
    assert shop._bridge is None and shop.gate.limits.in_flight == 0


def test_mcp_leaves_one_of_the_workers_real_threads_to_the_pages(app, blocking_tool, monkeypatch):
    started, release = blocking_tool
    monkeypatch.setattr(http_guard, "_worker_threads", None)
    # MCP_MAX_CONCURRENT was derived from WEB_THREADS; gunicorn was started with --threads 3.
    app.config.update(MCP_MAX_CONCURRENT=5, MCP_MAX_CONCURRENT_PER_CLIENT=5, MCP_REQUEST_TIMEOUT_SECONDS=20)
    shop = with_mcp(app)
    gunicorn_conf = runpy.run_path(str(Path(__file__).parents[2] / "deploy" / "gunicorn.conf.py"))
    gunicorn_conf["post_worker_init"](SimpleNamespace(cfg=SimpleNamespace(threads=3)))

    held = [in_thread(lambda: post(Client(shop), tool_call())) for _ in range(2)]
    assert started.acquire(timeout=10) and started.acquire(timeout=10)
    third = post(Client(shop), tool_call())
    release.set()
    for thread, _ in held:
        thread.join(timeout=10)

    assert http_guard.worker_threads() == 3
    assert third.status_code == 503 and third.headers["Retry-After"] == "1"
    assert [answers[0].status_code for _, answers in held] == [200, 200]


def test_with_one_thread_per_worker_mcp_is_refused_so_the_pages_keep_it(app, monkeypatch):
    monkeypatch.setattr(http_guard, "_worker_threads", None)
    http_guard.set_worker_threads(1)
    shop = with_mcp(app)

    answer = post(Client(shop), tool_call())

    assert answer.status_code == 503 and answer.get_json()["error"]["data"]["code"] == "unavailable"
    assert shop._bridge is None
