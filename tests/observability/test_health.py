"""/healthz (liveness) and /readyz (readiness): contracts, failures without stack traces, never cached."""

import pytest
import sqlalchemy as sa

from insightshop.extensions import db
from tests.conftest import _app_for


def test_healthz_answers_ok_and_is_not_cached(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.commits
def test_readyz_is_ready_when_the_database_answers_and_redis_is_not_configured(client):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.get_json() == {"status": "ready", "checks": {"database": "ok", "redis": "not configured"}}
    assert response.headers["Cache-Control"] == "no-store"


def test_readyz_is_503_with_retry_after_when_the_database_is_down(app, client, monkeypatch):
    broken = sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1")
    monkeypatch.setattr(type(db), "engine", property(lambda _self: broken))

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.get_json() == {
        "status": "unavailable",
        "checks": {"database": "unavailable", "redis": "not configured"},
    }
    assert "Traceback" not in response.get_data(as_text=True)


# /healthz during a database outage: tests/robustness/test_database_unavailable.py and tests/live/test_faults.py.


@pytest.mark.commits
def test_readyz_stays_ready_but_degraded_when_only_redis_is_down(app, client):
    # Issue 26 item 17: the shop serves without Redis, so a load balancer must not pull every server for it.
    app.config["REDIS_URL"] = "redis://127.0.0.1:9/0"  # nothing listens on the discard port

    response = client.get("/readyz")

    assert response.status_code == 200
    assert "Retry-After" not in response.headers
    assert response.get_json() == {"status": "degraded", "checks": {"database": "ok", "redis": "unavailable"}}


def test_readyz_is_503_when_the_database_and_redis_are_both_down(app, client, monkeypatch):
    app.config["REDIS_URL"] = "redis://127.0.0.1:9/0"
    broken = sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1")
    monkeypatch.setattr(type(db), "engine", property(lambda _self: broken))

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.get_json()["status"] == "unavailable"


@pytest.fixture
def default_limit_of_two(database_url):
    """An app with a default limit on every route. The limiter is one object for every app of the process, and
    init_app keeps the first default limits it sees: put the previous (none) back so later tests are not limited."""
    from insightshop.extensions import limiter

    previous = list(limiter.limit_manager._default_limits)
    limiter.limit_manager.set_default_limits([])
    try:
        yield _app_for(database_url, RATELIMIT_DEFAULT="2 per minute")
    finally:
        limiter.limit_manager.set_default_limits(previous)


def test_probes_are_exempt_from_rate_limits(default_limit_of_two):
    client = default_limit_of_two.test_client()

    probes = {client.get(path).status_code for path in ("/healthz", "/readyz", "/metrics") for _ in range(4)}
    pages = [client.get("/illustrations/shirt/white.svg") for _ in range(3)]

    assert probes == {200}
    assert [page.status_code for page in pages] == [200, 200, 429]  # the limit itself is in force
    assert "X-Request-ID" in pages[-1].headers  # the limiter's refusal still gets an id (and an access line)
