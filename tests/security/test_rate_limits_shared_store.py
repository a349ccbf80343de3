"""Issue #26 item 3: without Redis the limit counters live in the database, so every worker counts against the same
keys. Two apps on one database stand for two gunicorn workers: what one counts, the other sees (the shared counters
of rate_limits and Flask-Limiter's decorators alike), and a request's rollback never loses a count."""

import sqlite3
import threading
import time

import pytest
import sqlalchemy as sa

from insightshop.extensions import db, limiter
from insightshop.models.rate_limits import RateLimitCounter
from insightshop.services import rate_limit_database as store
from insightshop.services import rate_limits
from insightshop.services.rate_limit_database import DatabaseStorage
from insightshop.services.rate_limit_storage import SharedCounters, counters
from tests.conftest import _app_for
from tests.factories import make_user
from tests.live.servers import RedisServer

PASSWORD = "correct horse battery"
RULE = rate_limits.Rule("shared-test", "SHARED_TEST_LIMIT", "3 per minute")


@pytest.fixture
def second_worker(app, database_url):
    other = _app_for(database_url)
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def api_login(client, password, email="sam@example.com"):
    return client.post("/api/auth/login", json={"email": email, "password": password})


def stored_counters(prefix=""):
    db.session.expire_all()
    return [key for key in db.session.scalars(sa.select(RateLimitCounter.key)) if prefix in key]


def test_the_default_store_is_the_database(app):
    assert app.config["RATELIMIT_STORAGE_URI"] == "database://"
    # the app's counters; the limiter (one object per process) counts through whichever app is current
    assert isinstance(counters().primary, DatabaseStorage) and isinstance(limiter.limiter.storage, SharedCounters)


def test_wrong_logins_split_over_two_workers_lock_the_sixth(app, second_worker):
    make_user("sam@example.com")
    first, second = app.test_client(), second_worker.test_client()

    statuses = [api_login(first, "wrong").status_code for _ in range(3)]
    statuses += [api_login(second, "wrong").status_code for _ in range(2)]
    sixth_first, sixth_second = api_login(first, PASSWORD), api_login(second, PASSWORD)

    assert statuses == [401] * 5
    assert sixth_first.status_code == 429 and sixth_second.status_code == 429
    assert stored_counters("login-account-client")


def test_a_decorator_limit_split_over_two_workers_holds(app, second_worker):
    first, second = app.test_client(), second_worker.test_client()
    body = {"email": "nobody@example.com"}

    statuses = [first.post("/api/auth/password-reset", json=body).status_code for _ in range(3)]
    statuses += [second.post("/api/auth/password-reset", json=body).status_code for _ in range(2)]
    sixth = first.post("/api/auth/password-reset", json=body)

    assert statuses == [202] * 5
    assert sixth.status_code == 429 and sixth.get_json()["error"]["code"] == "rate_limited"
    assert stored_counters("request_password_reset")  # Flask-Limiter's own key, in the shared table


def test_the_shared_counters_of_two_workers_are_one(app, second_worker):
    rate_limits.take((RULE, "someone"))
    with second_worker.app_context():
        rate_limits.take((RULE, "someone"))
        rate_limits.take((RULE, "someone"))
        with pytest.raises(rate_limits.RateLimited):
            rate_limits.take((RULE, "someone"))

    with pytest.raises(rate_limits.RateLimited):
        rate_limits.take((RULE, "someone"))


def test_a_rolled_back_request_keeps_its_count(app):
    make_user("sam@example.com")
    for _ in range(3):
        rate_limits.take((RULE, "rollback"))
        db.session.rollback()

    with pytest.raises(rate_limits.RateLimited):
        rate_limits.take((RULE, "rollback"))


def test_an_ended_window_starts_again_and_old_rows_are_deleted(app):
    storage = counters().primary
    assert [storage.incr("k", 60) for _ in range(3)] == [1, 2, 3]
    with db.engine.begin() as connection:
        connection.execute(sa.update(RateLimitCounter.__table__).values(expires_at=time.time() - 3600))

    assert storage.get("k") == 0 and storage.incr("k", 60) == 1
    assert 0 < storage.get_expiry("k") - time.time() <= 60
    storage.incr("old", 60)
    with db.engine.begin() as connection:
        connection.execute(sa.update(RateLimitCounter.__table__).where(RateLimitCounter.key == "old")
                           .values(expires_at=time.time() - 3600))  # fmt: skip
    odds, store.CLEANUP_ODDS = store.CLEANUP_ODDS, 1
    try:
        storage.incr("k", 60)
    finally:
        store.CLEANUP_ODDS = odds
    assert stored_counters() == ["k"]


def test_a_refund_never_goes_below_zero_nor_revives_an_ended_window(app):
    storage = counters().primary
    storage.incr("r", 60)

    assert storage.incr("r", 60, amount=-1) == 0
    assert storage.incr("r", 60, amount=-1) == 0
    assert storage.incr("missing", 60, amount=-1) == 0
    assert storage.get("r") == 0 and storage.get("missing") == 0


def test_a_long_key_is_stored_as_its_digest(app):
    storage = counters().primary
    key = "LIMITER/" + "x" * 400

    assert storage.incr(key, 60) == 1 and storage.incr(key, 60) == 2
    assert storage.get(key) == 2
    storage.clear(key)
    assert storage.get(key) == 0


def test_while_redis_is_down_two_workers_count_in_the_database(database_url):
    with RedisServer() as redis_server:
        workers = [_app_for(database_url, REDIS_URL=redis_server.url, REDIS_RETRY_SECONDS=60) for _ in range(2)]
        try:
            with workers[0].app_context():
                make_user("sam@example.com")
            redis_server.stop()
            clients = [worker.test_client() for worker in workers]

            statuses = [api_login(clients[n % 2], "wrong").status_code for n in range(5)]
            sixth = api_login(clients[1], PASSWORD)

            assert statuses == [401] * 5 and sixth.status_code == 429
            with workers[0].app_context():
                assert stored_counters("login-account-client")
        finally:
            for worker in workers:
                with worker.app_context():
                    db.session.remove()
                    db.engine.dispose()
            limiter._storage_dead = False  # the limiter is one object for every app of the test process


def test_the_cleanup_runs_after_the_increment_has_committed(app, monkeypatch):
    # Review of issue #26, finding 15: the DELETE of ended windows inside the upsert's transaction (which holds the
    # key's row lock) could deadlock with another worker's upsert on PostgreSQL; it runs in a transaction of its own.
    storage = counters().primary
    storage.incr("hot", 60)
    monkeypatch.setattr(store, "CLEANUP_ODDS", 1)
    steps = []

    def statement(conn, cursor, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "DELETE")):
            steps.append(sql.lstrip().split()[0].upper())

    def commit(conn):
        steps.append("COMMIT")

    sa.event.listen(db.engine, "before_cursor_execute", statement)
    sa.event.listen(db.engine, "commit", commit)
    try:
        assert storage.incr("hot", 60) == 2
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", statement)
        sa.event.remove(db.engine, "commit", commit)

    assert steps == ["INSERT", "COMMIT", "DELETE", "COMMIT"]


def test_a_failed_cleanup_does_not_lose_the_count(app, monkeypatch):
    storage = counters().primary
    monkeypatch.setattr(store, "CLEANUP_ODDS", 1)
    monkeypatch.setattr(store, "delete", lambda table: (_ for _ in ()).throw(sa.exc.OperationalError("x", {}, None)))

    assert storage.incr("kept", 60) == 1 and storage.get("kept") == 1


def test_a_take_while_the_request_holds_a_write_neither_waits_nor_reports_an_outage(app):
    # Review of issue #26, finding 10: on SQLite the request's own uncommitted write holds the lock the counter's
    # connection needs; it used to wait 5 s, then report the database down and count in memory from then on.
    user = make_user("sam@example.com")
    user.first_name = "Pending"
    db.session.flush()

    started = time.monotonic()
    rate_limits.take((RULE, "pending"))
    elapsed = time.monotonic() - started
    db.session.rollback()
    rate_limits.take((RULE, "after"))

    assert elapsed < 1.0
    assert not counters().outage.down
    assert stored_counters("shared-test")  # the next take counts in the database again


def test_a_write_lock_another_worker_holds_briefly_is_waited_for(app, database_url):
    if not database_url.startswith("sqlite:///"):
        pytest.skip("SQLite's database-wide write lock")
    locked, release = threading.Event(), threading.Event()

    def other_worker():
        connection = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(5)
        time.sleep(0.3)
        connection.execute("COMMIT")
        connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    assert locked.wait(5)
    release.set()
    started = time.monotonic()
    counted = counters().primary.incr("contended", 60)
    elapsed = time.monotonic() - started
    thread.join()

    assert counted == 1 and 0.2 < elapsed < 1.0
    assert not counters().outage.down and stored_counters("contended") == ["contended"]


def test_logins_take_their_limits_before_writing(app, caplog):
    make_user("sam@example.com")
    client = app.test_client()

    statuses = [api_login(client, "wrong").status_code, api_login(client, PASSWORD).status_code]

    assert statuses == [401, 200]
    assert not [r for r in caplog.records if r.name == store.__name__ and r.levelname == "WARNING"]
    assert stored_counters("login-account-client") and not counters().outage.down
