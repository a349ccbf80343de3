import pytest

from insightshop import create_app
from insightshop.config import ConfigError, load_config, normalise_database_url


def test_production_refuses_to_start_without_a_secret_key(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("APP_ENV", "production")

    with pytest.raises(ConfigError, match="SECRET_KEY"):
        load_config(str(tmp_path))


def test_production_refuses_a_short_secret_key_and_says_how_to_make_one(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "changeme")
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_configured")

    with pytest.raises(ConfigError, match="SECRET_KEY is 8 characters; production needs at least 32") as refused:
        load_config(str(tmp_path))
    assert "secrets.token_urlsafe" in str(refused.value)
    monkeypatch.setenv("SECRET_KEY", "k" * 32)
    assert load_config(str(tmp_path))["SECRET_KEY"] == "k" * 32


def test_production_cookies_are_secure(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "from-the-environment-" + "k" * 32)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_configured")

    config = load_config(str(tmp_path))

    assert config["SECRET_KEY"] == "from-the-environment-" + "k" * 32
    assert config["SESSION_COOKIE_SECURE"] is True and config["SESSION_COOKIE_HTTPONLY"] is True


def test_development_generates_a_secret_key_once_under_instance(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("APP_ENV", "development")

    first = load_config(str(tmp_path))["SECRET_KEY"]
    second = load_config(str(tmp_path))["SECRET_KEY"]

    assert first == second and len(first) >= 40
    assert (tmp_path / "secret_key").read_text() == first
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_database_defaults_to_sqlite_under_instance_and_port_to_5000(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)

    config = load_config(str(tmp_path), {"SECRET_KEY": "x"})

    assert config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path}/insightshop.db"
    assert config["PORT"] == 5000


def test_environment_overrides_database_and_port(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgres://shop@db.internal/shop")
    monkeypatch.setenv("PORT", "8080")

    config = load_config(str(tmp_path), {"SECRET_KEY": "x"})

    assert config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://shop@db.internal/shop"
    assert config["PORT"] == 8080


def test_unknown_environment_is_rejected(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "staging-ish")
    with pytest.raises(ConfigError):
        load_config(str(tmp_path))


def test_normalise_database_url_keeps_other_urls():
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalise_database_url("postgresql+psycopg://a/b") == "postgresql+psycopg://a/b"


def test_create_app_reads_configuration_at_creation_time(monkeypatch, tmp_path):
    monkeypatch.setenv("PORT", "6123")
    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a.db"})
    assert app.config["PORT"] == 6123


def _production_env(monkeypatch, **extra):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "from-the-environment-" + "k" * 32)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://shop.example.com")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_configured")
    for name, value in extra.items():
        monkeypatch.setenv(name, value)


def test_production_refuses_the_debugger(monkeypatch, tmp_path):
    _production_env(monkeypatch, FLASK_DEBUG="1")

    with pytest.raises(ConfigError, match="Debug mode is refused"):
        load_config(str(tmp_path))


def test_production_refuses_the_offline_payment_provider_unless_asked_for(monkeypatch, tmp_path):
    _production_env(monkeypatch)
    monkeypatch.delenv("STRIPE_SECRET_KEY")

    with pytest.raises(ConfigError, match="ALLOW_OFFLINE_PAYMENTS"):
        load_config(str(tmp_path))
    monkeypatch.setenv("ALLOW_OFFLINE_PAYMENTS", "1")
    assert load_config(str(tmp_path))["ALLOW_OFFLINE_PAYMENTS"] is True


def test_a_demo_served_over_plain_http_keeps_cookies_that_http_can_carry(monkeypatch, tmp_path):
    _production_env(monkeypatch, PUBLIC_BASE_URL="http://127.0.0.1:5000")

    config = load_config(str(tmp_path))

    assert config["SESSION_COOKIE_SECURE"] is False and config["REMEMBER_COOKIE_SECURE"] is False
    assert config["SESSION_COOKIE_HTTPONLY"] is True


def test_behind_a_proxy_the_forwarded_client_address_is_believed_only_when_configured(monkeypatch, tmp_path):
    from flask import request

    for hops, expected in ((0, "127.0.0.1"), (1, "203.0.113.9")):
        app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x", "TRUSTED_PROXY_HOPS": hops,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})  # fmt: skip
        app.add_url_rule("/whoami", "whoami", lambda: request.remote_addr)

        answer = app.test_client().get("/whoami", headers={"X-Forwarded-For": "203.0.113.9"})

        assert answer.text == expected


def test_an_app_server_with_an_instance_name_says_it_served_the_request(tmp_path):
    for name, expected in ((None, None), ("app-2", "app-2")):
        app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x", "INSTANCE_NAME": name,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})  # fmt: skip

        assert app.test_client().get("/healthz").headers.get("X-Served-By") == expected


def test_redis_calls_time_out_so_an_outage_cannot_hold_requests(monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("REDIS_TIMEOUT_SECONDS", "0.5")

    config = load_config(str(tmp_path), {"APP_ENV": "testing", "SECRET_KEY": "x"})

    assert config["RATELIMIT_STORAGE_OPTIONS"] == {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
    assert config["RATELIMIT_IN_MEMORY_FALLBACK_ENABLED"] is True
