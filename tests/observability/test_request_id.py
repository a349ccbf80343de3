"""A request id per request: accepted from X-Request-ID when sane, generated otherwise, echoed, audited."""

import re

import pytest
from sqlalchemy import select

from insightshop.extensions import db
from insightshop.models.audit import AuditEntry
from insightshop.observability.request_context import current_request_id
from tests.factories import make_product


def test_a_sane_incoming_id_is_echoed(client):
    response = client.get("/healthz", headers={"X-Request-ID": "lb-4f2a.9_Z-1"})

    assert response.headers["X-Request-ID"] == "lb-4f2a.9_Z-1"


def test_an_id_is_generated_when_none_is_sent(client):
    first = client.get("/healthz").headers["X-Request-ID"]
    second = client.get("/healthz").headers["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first) and re.fullmatch(r"[0-9a-f]{32}", second)
    assert first != second


@pytest.mark.parametrize("insane", ["x" * 65, "has space", "semi;colon", "ünïcode", "new\\nline", "<script>"])
def test_an_insane_incoming_id_is_replaced(client, insane):
    response = client.get("/healthz", headers={"X-Request-ID": insane})

    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_the_id_is_forgotten_after_the_request(client):
    client.get("/healthz", headers={"X-Request-ID": "gone-after"})

    assert current_request_id() is None


def test_an_audit_entry_carries_the_id_of_the_request_that_caused_it(client):
    make_product("Oxford Shirt")

    client.post("/api/tools/search_products", json={"query": "shirt"}, headers={"X-Request-ID": "req-audit-1"})
    client.post("/api/tools/search_products", json={"query": "shirt"}, headers={"X-Request-ID": "req-audit-2"})

    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "tool.search_products")).all()
    assert [entry.request_id for entry in entries] == ["req-audit-1", "req-audit-2"]


def test_an_audit_entry_outside_a_request_has_no_id(app):
    from insightshop.services import audit
    from insightshop.services.actors import ANONYMOUS

    entry = audit.record(ANONYMOUS, "cli.something", "shop")
    db.session.commit()

    assert entry.request_id is None


def test_the_admin_audit_page_shows_the_request_id(client):
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token

    make_admin()
    login = {"email": "boss@example.com", "password": "an admin password", "csrf_token": csrf_token(client, "/login")}
    client.post("/login", data=login)
    shirt = make_product("Oxford Shirt")
    token = csrf_token(client, "/admin/products")
    client.post(f"/admin/products/{shirt.id}/active", data={"csrf_token": token, "active": "0"},
                headers={"X-Request-ID": "req-admin-1"})  # fmt: skip

    page = client.get("/admin/audit").get_data(as_text=True)

    assert 'request <span class="code">req-admin-1</span>' in page
