"""Issue #10 item 2: mailed links come from PUBLIC_BASE_URL, never from the request's Host; unknown hosts are 400."""

import re

import pytest

from insightshop.config import ConfigError, load_config
from insightshop.services.mail import list_outbox
from tests.admin_helpers import make_admin
from tests.factories import bearer, csrf_token, make_user

EVIL = {"Host": "evil.example.com"}


def links(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


def test_a_reset_request_with_a_forged_host_is_refused_and_mails_nothing(client):
    make_user("sam@example.com")

    response = client.post("/api/auth/password-reset", json={"email": "sam@example.com"}, headers=EVIL)

    assert response.status_code == 400
    assert list_outbox() == []


@pytest.mark.parametrize("path", ["/forgot-password", "/register", "/login", "/"])
def test_pages_refuse_a_forged_host(client, path):
    refused = client.get(path, headers=EVIL)

    assert refused.status_code == 400 and "not served here" in refused.get_data(as_text=True)
    assert client.get(path, headers={"Host": "localhost"}).status_code == 200
    assert client.get(path, headers={"Host": "127.0.0.1:5000"}).status_code == 200


def test_registration_with_a_forged_host_is_refused(client):
    response = client.post("/api/auth/register", json={"email": "new@example.com", "password": PASSWORD},
                           headers=EVIL)  # fmt: skip

    assert response.status_code == 400 and list_outbox() == []


PASSWORD = "correct horse battery"


def test_the_reset_link_starts_with_the_public_base_url(app, client):
    app.config["PUBLIC_BASE_URL"] = "https://shop.example.com"
    make_user("sam@example.com")

    client.post("/api/auth/password-reset", json={"email": "sam@example.com"})

    [message] = list_outbox()
    [link] = links(message)
    assert link.startswith("https://shop.example.com/reset-password/")


def test_the_verification_link_starts_with_the_public_base_url(app, client):
    app.config["PUBLIC_BASE_URL"] = "https://shop.example.com"

    client.post("/api/auth/register", json={"email": "new@example.com", "password": PASSWORD})

    [message] = list_outbox()
    [link] = links(message)
    assert link.startswith("https://shop.example.com/verify/")


def test_the_admins_reset_link_starts_with_the_public_base_url(app, client):
    app.config["PUBLIC_BASE_URL"] = "https://shop.example.com"
    make_admin()
    customer = make_user("c@example.com")

    page = client.post("/login", data={"email": "boss@example.com", "password": "an admin password",
                                       "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    assert page.status_code == 302
    sent = client.post(f"/admin/users/{customer.id}/password-reset",
                       data={"csrf_token": csrf_token(client, "/admin/users")})  # fmt: skip
    api_client = app.test_client()
    api = api_client.post(f"/api/admin/users/{customer.id}/password-reset",
                          headers=bearer(api_client, "boss@example.com", "an admin password"))  # fmt: skip

    assert sent.status_code == 303 and api.status_code == 202
    messages = list_outbox()
    assert len(messages) == 2
    for message in messages:
        [link] = links(message)
        assert link.startswith("https://shop.example.com/reset-password/")


def test_the_existing_account_notice_links_start_with_the_public_base_url(app, client):
    app.config["PUBLIC_BASE_URL"] = "https://shop.example.com"
    make_user("sam@example.com")

    client.post("/api/auth/register", json={"email": "sam@example.com", "password": PASSWORD})

    [message] = list_outbox()
    assert links(message) == ["https://shop.example.com/login", "https://shop.example.com/forgot-password"]


def test_production_needs_a_public_base_url(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.delenv("PUBLIC_BASE_URL", raising=False)

    with pytest.raises(ConfigError, match="PUBLIC_BASE_URL"):
        load_config(str(tmp_path))


def test_production_trusts_only_the_public_host_unless_told(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com/")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_live_configured")
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)

    config = load_config(str(tmp_path))

    assert config["PUBLIC_BASE_URL"] == "https://shop.example.com"
    assert config["TRUSTED_HOSTS"] == ["shop.example.com"]
    monkeypatch.setenv("TRUSTED_HOSTS", "shop.example.com, .shop.example.com")
    assert load_config(str(tmp_path))["TRUSTED_HOSTS"] == ["shop.example.com", ".shop.example.com"]


def test_development_defaults_to_the_local_server(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "development")
    monkeypatch.setenv("PORT", "5123")
    monkeypatch.delenv("PUBLIC_BASE_URL", raising=False)
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)

    config = load_config(str(tmp_path), {"SECRET_KEY": "x"})

    assert config["PUBLIC_BASE_URL"] == "http://127.0.0.1:5123"
    assert config["TRUSTED_HOSTS"] == ["127.0.0.1", "localhost"]
