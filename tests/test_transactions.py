"""The rolled-back transaction every unmarked test runs in (tests/transactions.py), on the database of this run."""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from tests import transactions
from tests.conftest import POSTGRES_URL, _normalise

pytestmark = pytest.mark.commits  # builds and drops a table of its own, outside any test's transaction


@dataclass
class Held:
    engine: sa.Engine  # the engine under test, its one connection held in a transaction
    table: sa.Table
    url: str
    transaction: transactions.HeldEngine

    def committed(self) -> list[str]:
        """What another connection sees: only what was really committed."""
        other = sa.create_engine(self.url)
        with other.connect() as connection:
            found = names(connection, self.table)
        other.dispose()
        return found


def names(connection, table: sa.Table) -> list[str]:
    return list(connection.scalars(sa.select(table.c.name).order_by(table.c.id)))


@pytest.fixture
def held(tmp_path):
    """An empty table committed for real (dropped afterwards), and an engine over it held by transactions.hold."""
    url = _normalise(POSTGRES_URL) if POSTGRES_URL else f"sqlite:///{tmp_path / 'held.db'}"
    table = sa.Table(f"held_{uuid.uuid4().hex[:8]}", sa.MetaData(),
                     sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String(20)))  # fmt: skip
    owner = sa.create_engine(url)
    table.create(owner)
    engine = sa.create_engine(url)
    yield Held(engine, table, url, transactions.hold(engine))
    table.drop(owner)
    owner.dispose()


def test_what_the_code_commits_is_seen_inside_and_gone_after_the_release(held):
    with Session(held.engine) as session:
        session.execute(held.table.insert().values(name="kept"))
        session.commit()
    with held.engine.begin() as connection:  # another user of the engine (e.g. the rate-limit counters)
        connection.execute(held.table.insert().values(name="counted"))
    with held.engine.connect() as connection:
        assert names(connection, held.table) == ["kept", "counted"]
    assert held.committed() == []
    held.transaction.release()
    assert held.committed() == []


def test_a_rollback_and_a_nested_savepoint_undo_only_their_own_work(held):
    with Session(held.engine) as session:
        session.execute(held.table.insert().values(name="first"))
        session.commit()
        session.execute(held.table.insert().values(name="undone"))
        session.rollback()
        with session.begin_nested():
            session.execute(held.table.insert().values(name="second"))
        nested = session.begin_nested()
        session.execute(held.table.insert().values(name="undone too"))
        nested.rollback()
        session.commit()
        assert names(session, held.table) == ["first", "second"]
    held.transaction.release()
    assert held.committed() == []


def test_a_failed_statement_rolls_back_to_the_savepoint_and_the_transaction_goes_on(held):
    with Session(held.engine) as session:
        session.execute(held.table.insert().values(id=1, name="one"))
        session.commit()
        with pytest.raises(sa.exc.IntegrityError):
            session.execute(held.table.insert().values(id=1, name="again"))
        session.rollback()
        assert names(session, held.table) == ["one"]
    held.transaction.release()


def test_a_second_thread_is_refused_with_the_mark_to_use(held):
    errors = []

    def other_thread():
        try:
            with held.engine.connect() as connection:
                names(connection, held.table)
        except RuntimeError as error:
            errors.append(str(error))

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    held.transaction.release()
    assert errors and "pytest.mark.commits" in errors[0]
