"""No admin route answers anyone but an admin with data: walked over the whole URL map, every method."""

import pytest

from tests.admin_helpers import make_admin
from tests.factories import bearer, csrf_token, make_user

ADMIN_PREFIXES = ("/admin", "/api/admin")


def admin_rules(app):
    for rule in app.url_map.iter_rules():
        if rule.rule == "/admin" or rule.rule.startswith(("/admin/", "/api/admin/")):
            path = rule.rule
            for argument in rule.arguments:
                path = path.replace(f"<int:{argument}>", "1").replace(f"<{argument}>", "1")
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                yield method, path


def test_the_admin_surface_is_large_enough_to_mean_something(app):
    assert len(list(admin_rules(app))) >= 40


def test_visitors_are_sent_to_login_or_get_401(app, client):
    for method, path in admin_rules(app):
        response = client.open(
            path, method=method, headers={"X-CSRFToken": csrf_token(client)} if method != "GET" else {}
        )
        if path.startswith("/api/"):
            assert response.status_code == 401, (method, path)
            assert response.get_json()["error"]["code"] == "unauthorized"
        else:
            assert response.status_code == 302 and "/login" in response.location, (method, path, response.status_code)


@pytest.mark.parametrize("htmx", [False, True])
def test_logged_in_customers_get_403_everywhere(app, client, htmx):
    make_user("shopper@example.com")
    client.post("/login", data={"email": "shopper@example.com", "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    headers = {"X-CSRFToken": csrf_token(client), **({"HX-Request": "true"} if htmx else {})}
    for method, path in admin_rules(app):
        response = client.open(
            path, method=method, headers=headers, json={} if path.startswith("/api/") and method != "GET" else None
        )
        assert response.status_code == 403, (method, path, response.status_code)
        assert b"Admins only" in response.data


def test_customer_tokens_get_403_on_the_admin_api(app, client):
    make_user("shopper@example.com")
    headers = bearer(client, "shopper@example.com")
    for method, path in admin_rules(app):
        if path.startswith("/api/"):
            response = client.open(path, method=method, headers=headers, json={} if method != "GET" else None)
            assert response.status_code == 403, (method, path)
            assert response.get_json()["error"]["code"] == "forbidden"


def test_admins_get_in(client):
    make_admin()
    headers = bearer(client, "boss@example.com", "an admin password")
    assert client.get("/api/admin/products", headers=headers).status_code == 200
