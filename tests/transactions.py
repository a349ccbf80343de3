"""A test's whole database life inside one transaction that its end rolls back.

`hold(engine)` gives every user of an app's engine (the request's session, the rate-limit counters' own
connections, the CLI) one database connection, inside a transaction begun here. What the code under test begins,
commits or rolls back becomes a savepoint inside it: `db.session.commit()` releases a savepoint, a rollback returns
to it, and `release()` rolls the whole transaction back, so the next test finds the database as this one did. On
SQLite and on PostgreSQL alike; `begin_nested()` savepoints nest inside as they would in production.

What cannot live in one connection must commit for real and is marked `commits` (tests/conftest.py): another
thread serving requests (a live server), another process (flask subprocesses, gunicorn), another engine or app
over the same database.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field

import sqlalchemy as sa


@dataclass
class HeldEngine:
    """An engine whose one connection is held in a transaction until release()."""

    engine: sa.Engine
    fairy: object
    savepoints: list[str] = field(default_factory=list)
    guard: object = None

    def release(self) -> None:
        """Roll back everything the test did and give the connection back."""
        driver = self.fairy.driver_connection
        driver.rollback()
        self.savepoints.clear()
        self.fairy.invalidate()  # the connection's state is ours, not the pool's: never reuse it
        if self.guard is not None:  # the engine may be held again by the next test (a shared app's)
            sa.event.remove(self.engine, "before_cursor_execute", self.guard)
        self.engine.dispose()


def hold(engine: sa.Engine) -> HeldEngine:
    """Make every connection of `engine` one, and open the outer transaction on it (see the module)."""
    previous = engine.pool
    engine.pool = sa.pool.StaticPool(
        previous._creator,
        reset_on_return=None,  # a connection given back must not roll back another user's savepoint
        echo=previous.echo,
        logging_name=previous._orig_logging_name,
        _dispatch=previous.dispatch,  # the app's and the dialect's connect listeners
        dialect=previous._dialect,
    )
    previous.dispose()
    fairy = engine.raw_connection()  # connects (and lets the dialect initialise) before the hooks go in
    driver = fairy.driver_connection
    if engine.dialect.name == "sqlite":
        driver.isolation_level = None  # pysqlite must not BEGIN or COMMIT on its own: this module does
        driver.execute("BEGIN")
    else:
        driver.execute("SELECT 1")  # psycopg opens its transaction with the first statement and keeps it open
    held = HeldEngine(engine, fairy, guard=_statement_guard(threading.get_ident()))
    _hook_transactions(engine.dialect, held)
    sa.event.listen(engine, "before_cursor_execute", held.guard, retval=True)
    return held


def _statement_guard(owner: int):
    def guard(connection, cursor, statement, parameters, context, executemany):
        if threading.get_ident() != owner:
            raise RuntimeError("a second thread used the test's held database connection: mark the test "
                               "@pytest.mark.commits (tests/transactions.py)")  # fmt: skip
        if statement.lstrip().upper().startswith("BEGIN"):
            # `BEGIN IMMEDIATE` (orders.write_transaction takes SQLite's write lock up front) cannot run inside
            # the held transaction, and needs not: the held connection is the only one, so it has the lock.
            return "SELECT 1", ()
        return statement, parameters

    return guard


def _hook_transactions(dialect, held: HeldEngine) -> None:
    """Per engine (the dialect object is the engine's own): begin/commit/rollback as savepoints, innermost first."""
    names = (f"test_transaction_{number}" for number in itertools.count(1))

    def execute(driver_connection, statement: str) -> None:
        cursor = driver_connection.cursor()
        try:
            cursor.execute(statement)
        finally:
            cursor.close()

    def begin(dbapi_connection) -> None:
        name = next(names)
        execute(dbapi_connection, f"SAVEPOINT {name}")
        held.savepoints.append(name)

    def commit(dbapi_connection) -> None:
        if held.savepoints:
            execute(dbapi_connection, f"RELEASE SAVEPOINT {held.savepoints.pop()}")

    def rollback(dbapi_connection) -> None:
        if held.savepoints:
            name = held.savepoints.pop()
            execute(dbapi_connection, f"ROLLBACK TO SAVEPOINT {name}")
            execute(dbapi_connection, f"RELEASE SAVEPOINT {name}")

    dialect.do_begin = begin
    dialect.do_commit = commit
    dialect.do_rollback = rollback
