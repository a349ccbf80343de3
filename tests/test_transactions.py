"""The rolled-back transaction every unmarked test runs in (tests/transactions.py), on the database of this run."""

from __future__ import annotations

import threading
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from tests import transactions
from tests.conftest import POSTGRES_URL, _normalise

pytestmark = pytest.mark.commits  # builds and drops a table of its own, outside any test's transaction


@pytest.fixture
def database(tmp_path):
    """(url, table) over an empty table committed for real, dropped afterwards."""
    url = _normalise(POSTGRES_URL) if POSTGRES_URL else f"sqlite:///{tmp_path / 'held.db'}"
    table = sa.Table(f"held_{uuid.uuid4().hex[:8]}", sa.MetaData(),
                     sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String(20)))  # fmt: skip
    engine = sa.create_engine(url)
    table.create(engine)
    yield url, table
    table.drop(engine)
    engine.dispose()


def names(url: str, table: sa.Table) -> list[str]:
    """What another connection sees: only what was really committed."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        found = [row.name for row in connection.execute(sa.select(table.c.name).order_by(table.c.id))]
    engine.dispose()
    return found


def test_what_the_code_commits_is_seen_inside_and_gone_after_the_release(database):
    url, table = database
    engine = sa.create_engine(url)
    held = transactions.hold(engine)
    with Session(engine) as session:
        session.execute(table.insert().values(name="kept"))
        session.commit()
    with engine.begin() as connection:  # another user of the engine (e.g. the rate-limit counters)
        connection.execute(table.insert().values(name="counted"))
    with engine.connect() as connection:
        assert [row.name for row in connection.execute(sa.select(table.c.name).order_by(table.c.id))] == [
            "kept",
            "counted",
        ]
    assert names(url, table) == []
    held.release()
    assert names(url, table) == []


def test_a_rollback_and_a_nested_savepoint_undo_only_their_own_work(database):
    url, table = database
    engine = sa.create_engine(url)
    held = transactions.hold(engine)
    with Session(engine) as session:
        session.execute(table.insert().values(name="first"))
        session.commit()
        session.execute(table.insert().values(name="undone"))
        session.rollback()
        with session.begin_nested():
            session.execute(table.insert().values(name="second"))
        nested = session.begin_nested()
        session.execute(table.insert().values(name="undone too"))
        nested.rollback()
        session.commit()
        assert session.scalars(sa.select(table.c.name).order_by(table.c.id)).all() == ["first", "second"]
    held.release()
    assert names(url, table) == []


def test_a_failed_statement_rolls_back_to_the_savepoint_and_the_transaction_goes_on(database):
    url, table = database
    engine = sa.create_engine(url)
    held = transactions.hold(engine)
    with Session(engine) as session:
        session.execute(table.insert().values(id=1, name="one"))
        session.commit()
        with pytest.raises(sa.exc.IntegrityError):
            session.execute(table.insert().values(id=1, name="again"))
        session.rollback()
        assert session.scalars(sa.select(table.c.name)).all() == ["one"]
    held.release()


def test_a_second_thread_is_refused_with_the_mark_to_use(database):
    url, table = database
    engine = sa.create_engine(url)
    held = transactions.hold(engine)
    errors = []

    def other_thread():
        try:
            with engine.connect() as connection:
                connection.execute(sa.select(table.c.name))
        except RuntimeError as error:
            errors.append(str(error))

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    held.release()
    assert errors and "pytest.mark.commits" in errors[0]
