"""With REDIS_URL set, rate limits live in Redis (shared by every app server)."""

import uuid

import pytest
import redis

from insightshop import create_app
from insightshop.extensions import db

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_app(database_url, tmp_path):
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.ConnectionError:
        pytest.fail("Redis must run at 127.0.0.1:6379 for this test")
    # A key prefix and a client address of their own keep this test's counters apart from any other run's.
    prefix = f"insightshop-test-{uuid.uuid4().hex}"
    address = "127.{}.{}.{}".format(*uuid.uuid4().bytes[:3])
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url,
                      "REDIS_URL": REDIS_URL, "RATELIMIT_KEY_PREFIX": prefix})  # fmt: skip
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        yield app, address
        db.session.remove()
        db.engine.dispose()
    client = redis.Redis.from_url(REDIS_URL)
    for pattern in (f"*{prefix}*", f"*{address}*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


def test_login_failures_are_counted_in_redis(redis_app):
    app, address = redis_app
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    assert app.config["RATELIMIT_STORAGE_URI"] == REDIS_URL

    statuses = [
        client.post("/api/auth/login", json={"email": "a@example.com", "password": "x"}).status_code for _ in range(6)
    ]

    assert statuses == [401] * 5 + [429]
    assert any(redis.Redis.from_url(REDIS_URL).scan_iter(f"*{app.config['RATELIMIT_KEY_PREFIX']}*"))
