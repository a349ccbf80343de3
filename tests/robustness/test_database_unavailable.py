"""An unreachable database is a 503 with Retry-After and the error envelope (a plain page outside /api), never a
500 or a stack trace, in every mode; tests/live/test_faults.py stops a real PostgreSQL under a real server."""

from __future__ import annotations

import time

import pytest

from insightshop import create_app
from insightshop.extensions import db
from tests.api_conformance import ConformingClient
from tests.live.servers import free_port


@pytest.fixture
def unreachable_app():
    # Nothing listens on this port: every connection attempt is refused, as while PostgreSQL is stopped.
    url = f"postgresql+psycopg://root@127.0.0.1:{free_port()}/insightshop"
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": url})
    app.test_client_class = ConformingClient
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/products"), ("GET", "/api/products/1"),
                                              ("POST", "/api/auth/guest")])  # fmt: skip
def test_the_api_answers_503_with_retry_after_and_the_envelope(unreachable_app, method, path):
    # The test client checks the answer against the OpenAPI document too (503 is documented everywhere).
    response = unreachable_app.test_client().open(path, method=method)

    # At least the outage hint; a rate limit on the route may make it its own (longer) window.
    assert response.status_code == 503 and int(response.headers["Retry-After"]) >= 5
    assert response.get_json()["error"]["code"] == "service_unavailable"
    assert "Traceback" not in response.get_data(as_text=True)


def test_pages_answer_a_friendly_503_page(unreachable_app):
    started = time.monotonic()
    response = unreachable_app.test_client().get("/catalog?q=shirt")

    assert time.monotonic() - started < 5  # refused at once, not hanging on the connection
    # At least the outage hint; a rate limit on the route may make it its own (longer) window.
    assert response.status_code == 503 and int(response.headers["Retry-After"]) >= 5
    page = response.get_data(as_text=True)
    assert "briefly unavailable" in page and "Traceback" not in page and "psycopg" not in page


def test_healthz_is_503_not_500_and_json_when_asked(unreachable_app):
    client = unreachable_app.test_client()

    as_page = client.get("/healthz")
    as_json = client.get("/healthz", headers={"Accept": "application/json"})

    assert as_page.status_code == as_json.status_code == 503
    assert as_json.get_json()["error"]["code"] == "service_unavailable"


def test_postgresql_connections_give_up_quickly():
    url = "postgresql+psycopg://root@127.0.0.1:5432/insightshop"
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": url})

    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options["pool_pre_ping"] is True and options["connect_args"]["connect_timeout"] == 3
    assert options["pool_timeout"] == 10


def test_every_operation_documents_503():
    from insightshop.schemas.openapi import build_openapi

    operations = [op for item in build_openapi()["paths"].values() for op in item.values()]
    assert all("503" in operation["responses"] for operation in operations)


def test_a_connection_cut_after_the_answer_was_made_keeps_the_answer(database_url, monkeypatch):
    # PostgreSQL stopping between a request's last query and its teardown: the session's closing ROLLBACK fails on
    # the dead connection. The answer is already made; it must reach the client instead of gunicorn's bare 500.
    import psycopg
    import sqlalchemy.exc
    from sqlalchemy.orm import Session

    closing = Session.close
    failures = []

    def close_on_a_cut_connection(session):
        if not failures:
            failures.append(session)
            raise sqlalchemy.exc.OperationalError(
                "ROLLBACK", {}, psycopg.errors.AdminShutdown("terminating connection due to administrator command")
            )
        return closing(session)

    # No app context of the test's own: each request's teardown is the one that closes its session, as in gunicorn.
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url})
    client = app.test_client()
    monkeypatch.setattr(Session, "close", close_on_a_cut_connection)
    response = client.get("/api/products")

    assert failures, "the session was never closed"
    assert response.status_code == 200 and "products" in response.get_json()
    assert client.get("/api/products").status_code == 200  # the next request gets a working session
    with app.app_context():
        db.engine.dispose()


def _outage() -> Exception:
    import psycopg
    import sqlalchemy.exc

    return sqlalchemy.exc.OperationalError("SELECT 1", {}, psycopg.OperationalError("connection refused"))


def test_an_outage_met_in_an_after_request_hook_is_a_503_not_a_500(database_url):
    # Flask hands an exception from an after_request hook to its 500 handlers only, never to the outage's own.
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url})
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the handlers answer instead of the test client

    @app.after_request
    def query_after_the_view(response):
        raise _outage()

    api = app.test_client().get("/api/products")
    page = app.test_client().get("/catalog")

    assert api.status_code == 503 and api.get_json()["error"]["code"] == "service_unavailable"
    assert page.status_code == 503 and "briefly unavailable" in page.get_data(as_text=True)
    assert api.headers["Retry-After"] == page.headers["Retry-After"] == "5"


def test_a_page_built_before_the_outage_is_served_and_not_stored(database_url, monkeypatch):
    from insightshop.services import pricing
    from insightshop.web import page_cache

    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url})
    page_cache.enable(app)
    client = app.test_client()
    client.get("/privacy")  # any page: settles the session cookie's first-visit work

    def database_gone(now):
        raise _outage()

    monkeypatch.setattr(pricing, "next_price_change", database_gone)  # the page cache asks it after the view
    first, second = client.get("/"), client.get("/")

    assert first.status_code == second.status_code == 200
    assert first.headers["X-Cache"] == second.headers["X-Cache"] == "miss"  # served, never stored
    with app.app_context():
        db.engine.dispose()
