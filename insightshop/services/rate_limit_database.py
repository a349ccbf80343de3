"""Rate-limit counters in the shop's database: the shared store of every worker and app server without Redis.

`DatabaseStorage` is a `limits` storage (scheme `database://`), so the shared counters of `rate_limits.take` and
Flask-Limiter's `@limiter.limit` decorators both count in the `rate_limit_counters` table. Each operation runs on a
connection and in a transaction of its own, never in the request's session: a request that rolls back neither
loses nor repeats its counts. An increment is one atomic statement on SQLite and PostgreSQL alike
(INSERT … ON CONFLICT DO UPDATE … RETURNING); a window that has ended starts again from the increment, and ended
windows are deleted now and then, in a transaction of their own after the increment.

On SQLite one writer holds the whole database: a busy lock is contention, not an outage. Counter connections wait
SQLITE_BUSY_MS per try and retry for up to SQLITE_LOCK_PATIENCE seconds; a lock that lasts longer, or one held by
the calling request's own uncommitted write (which cannot end before the count does, so waiting is pointless),
raises CountersBusy: that one operation is counted in this process's memory, and the database stays in use (no
"down" warning). Code takes its limits *before* it writes in the request's session, so this stays the exception.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from flask import has_app_context
from limits.storage import Storage
from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..extensions import db
from ..models.rate_limits import RateLimitCounter

SCHEME = "database"
MAX_KEY_LENGTH = 255
# Roughly one increment in CLEANUP_ODDS deletes the windows that ended more than CLEANUP_GRACE seconds ago.
CLEANUP_ODDS = 200
CLEANUP_GRACE = 60.0

# SQLite: how long one try waits for the write lock, and how long the tries of one operation go on.
SQLITE_BUSY_MS = 250
SQLITE_LOCK_PATIENCE = 5.0

_table = RateLimitCounter.__table__
T = TypeVar("T")
log = logging.getLogger(__name__)


class CountersBusy(Exception):
    """SQLite's write lock stayed taken (or is held by the request itself): count this one operation elsewhere."""


class DatabaseStorage(Storage):
    """Fixed-window counters in the `rate_limit_counters` table of the current app's database."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._engine: Engine | None = None

    def bind(self, engine: Engine) -> None:
        """The engine used outside an app context (inside one, the current app's engine is used)."""
        self._engine = engine

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return (DBAPIError, PoolTimeout)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add `amount` to the key's window (a new window of `expiry` seconds when there is none); the new count."""
        key, now = _stored(key), time.time()

        def work(connection) -> int:
            if amount < 0:  # a refund: only from a live window, never below zero
                row = connection.execute(
                    update(_table)
                    .where(_table.c.key == key, _table.c.expires_at > now, _table.c.count >= -amount)
                    .values(count=_table.c.count + amount)
                    .returning(_table.c.count)
                ).first()
                return row[0] if row else 0
            return connection.execute(_upsert(connection.dialect.name, key, now, float(expiry), amount)).scalar_one()

        count = self._run(work)
        if amount > 0 and random.randrange(CLEANUP_ODDS) == 0:
            self._delete_ended(now)
        return int(count)

    def _delete_ended(self, now: float) -> None:
        # In a transaction of its own, after the increment has committed: a DELETE of many rows inside the hot
        # upsert transaction (holding its row lock) could deadlock with another worker's upsert on PostgreSQL.
        # A failed cleanup costs nothing but stale rows; the next one deletes them.
        try:
            self._run(
                lambda connection: connection.execute(delete(_table).where(_table.c.expires_at < now - CLEANUP_GRACE))
            )
        except (*self.base_exceptions, CountersBusy):
            pass

    def get(self, key: str) -> int:
        count = self._run(lambda connection: connection.scalar(
            select(_table.c.count).where(_table.c.key == _stored(key), _table.c.expires_at > time.time())
        ))  # fmt: skip
        return int(count or 0)

    def get_expiry(self, key: str) -> float:
        now = time.time()
        expires = self._run(lambda connection: connection.scalar(
            select(_table.c.expires_at).where(_table.c.key == _stored(key), _table.c.expires_at > now)
        ))  # fmt: skip
        return float(expires) if expires is not None else now

    def check(self) -> bool:
        try:
            self._run(lambda connection: connection.scalar(select(_table.c.key).limit(1)))
        except CountersBusy:
            return True  # it answers; someone is writing
        except self.base_exceptions:
            return False
        return True

    def reset(self) -> int | None:
        return self._run(lambda connection: connection.execute(delete(_table)).rowcount)

    def clear(self, key: str) -> None:
        self._run(lambda connection: connection.execute(delete(_table).where(_table.c.key == _stored(key))))

    def _run(self, work: Callable[[Connection], T]) -> T:
        """work(connection) in a transaction of its own, apart from the request's session, committed at the end.

        On SQLite a busy lock is retried for SQLITE_LOCK_PATIENCE seconds, then CountersBusy (see the module)."""
        engine = db.engine if has_app_context() else self._engine
        if engine is None:
            raise RuntimeError("DatabaseStorage needs an app context or bind(engine)")
        if engine.dialect.name != "sqlite":
            with engine.begin() as connection:
                return work(connection)
        if _request_holds_sqlite_write(engine):
            log.warning("A rate limit was counted while the request held an uncommitted write (SQLite's lock): "
                        "counted in this process's memory; take limits before writing")  # fmt: skip
            raise CountersBusy("the request's own session holds SQLite's write lock")
        deadline = time.monotonic() + SQLITE_LOCK_PATIENCE
        pause = 0.01
        while True:
            try:
                with _short_busy_timeout(engine) as connection, connection.begin():
                    return work(connection)
            except OperationalError as error:
                if "locked" not in str(error).lower():
                    raise
                if time.monotonic() + pause >= deadline:
                    raise CountersBusy("SQLite's write lock stayed taken") from error
                time.sleep(pause)
                pause = min(pause * 2, 0.1)


@contextlib.contextmanager
def _short_busy_timeout(engine: Engine):
    """A connection that waits SQLITE_BUSY_MS for the lock per statement; the pool gets it back as it was."""
    with engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        previous = raw.execute("PRAGMA busy_timeout").fetchone()[0]
        raw.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_MS)}")
        try:
            yield connection
        finally:
            raw.execute(f"PRAGMA busy_timeout = {int(previous)}")


def _request_holds_sqlite_write(engine: Engine) -> bool:
    """Whether the current request's session has an open SQLite write transaction on this engine."""
    if not has_app_context():
        return False
    session = db.session()
    if not session.in_transaction() or session.get_bind() is not engine:
        return False
    raw = session.connection().connection.dbapi_connection
    return bool(getattr(raw, "in_transaction", False))


def _upsert(dialect: str, key: str, now: float, expiry: float, amount: int):
    if dialect == "postgresql":
        insert = postgresql.insert
    elif dialect == "sqlite":
        insert = sqlite.insert
    else:
        raise NotImplementedError(f"rate-limit counters in the database need SQLite or PostgreSQL, not {dialect}")
    statement = insert(_table).values(key=key, count=amount, expires_at=now + expiry)
    ended = _table.c.expires_at <= now
    return statement.on_conflict_do_update(
        index_elements=[_table.c.key],
        set_={
            "count": case((ended, amount), else_=_table.c.count + amount),
            "expires_at": case((ended, now + expiry), else_=_table.c.expires_at),
        },
    ).returning(_table.c.count)


def _stored(key: str) -> str:
    # Flask-Limiter's keys hold the route and the client; a longer one than fits is stored as its digest.
    if len(key) <= MAX_KEY_LENGTH:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
