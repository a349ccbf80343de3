"""With Redis down, logins and every other page keep being served: rate limits (the decorators' too) are counted in
the shared database (the outage logged once) and go back to Redis when it answers again. A private redis-server on its own
port is stopped and started; tests/live/test_redis_down.py does the same to real gunicorn servers."""

import logging

import pytest
import redis
import sqlalchemy as sa

from insightshop.extensions import db, limiter
from insightshop.models.rate_limits import RateLimitCounter
from insightshop.services.rate_limit_storage import counters
from tests.conftest import _app_for
from tests.factories import csrf_token, make_user
from tests.live.servers import RedisServer

PASSWORD = "correct horse battery"


@pytest.fixture
def private_redis():
    with RedisServer() as server:
        yield server


@pytest.fixture(autouse=True)
def outage_log():
    # Alembic's fileConfig (the session's migrations ran in this process) disables loggers that existed then.
    logger = logging.getLogger("insightshop.outages")
    logger.disabled = False
    return logger


@pytest.fixture
def redis_app(database_url, tmp_path, private_redis):
    # Probing again at every request: the test need not wait for REDIS_RETRY_SECONDS.
    app = _app_for(database_url, REDIS_URL=private_redis.url, REDIS_RETRY_SECONDS=0)
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()
    limiter._storage_dead = False  # the limiter is one object for every app of the test process


def api_login(client, password, email="sam@example.com"):
    return client.post("/api/auth/login", json={"email": email, "password": password})


def test_logins_are_served_and_still_limited_while_redis_is_down(redis_app, private_redis, caplog):
    make_user("sam@example.com")
    client = redis_app.test_client()
    private_redis.stop()

    with caplog.at_level(logging.WARNING):
        wrong = [api_login(client, "wrong password").status_code for _ in range(6)]
        right = api_login(client, PASSWORD)
        page = client.get("/login")

    assert wrong == [401] * 5 + [429]
    assert right.status_code == 429  # the account stays locked for the window, as with Redis
    assert page.status_code == 200
    outage_lines = [r for r in caplog.records if r.name == "insightshop.outages"]
    assert len(outage_lines) == 1 and "Redis (rate limits) is unreachable" in outage_lines[0].getMessage()


def test_the_page_login_and_its_decorator_limit_work_without_redis(redis_app, private_redis):
    make_user("sam@example.com")
    client = redis_app.test_client()
    token = csrf_token(client, "/login")
    private_redis.stop()

    response = client.post("/login", data={"email": "sam@example.com", "password": PASSWORD, "csrf_token": token})

    assert response.status_code == 302
    assert client.get("/account").status_code == 200


def test_counting_goes_back_to_redis_when_it_returns(redis_app, private_redis, caplog):
    make_user("sam@example.com")
    client = redis_app.test_client()
    private_redis.stop()
    assert api_login(client, "wrong password").status_code == 401
    assert counters().outage.down

    private_redis.start()
    with caplog.at_level(logging.WARNING):
        statuses = [api_login(client, "wrong password").status_code for _ in range(6)]

    assert not counters().outage.down
    assert any("answers again" in r.getMessage() for r in caplog.records if r.name == "insightshop.outages")
    # The outage's count stayed in memory: Redis sees a fresh window of five.
    assert statuses == [401] * 5 + [429]
    assert any(redis.Redis.from_url(private_redis.url).scan_iter("*shared/login-account*"))


def test_decorator_limits_count_in_the_shared_database_while_redis_is_down(redis_app, private_redis):
    # Review of issue #26, finding 11: Flask-Limiter's decorator limits fell back to each process's memory.
    client = redis_app.test_client()
    body = {"email": "nobody@example.com"}
    assert client.post("/api/auth/password-reset", json=body).status_code == 202  # one counted in Redis
    private_redis.stop()

    statuses = [client.post("/api/auth/password-reset", json=body).status_code for _ in range(6)]

    assert statuses == [202] * 5 + [429]  # the outage's window starts afresh in the shared database
    db.session.expire_all()
    keys = db.session.scalars(sa.select(RateLimitCounter.key)).all()
    assert any("request_password_reset" in key for key in keys)
    assert client.get("/login").status_code == 200
