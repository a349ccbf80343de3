"""Test fixtures: a fresh app and database per test, on SQLite (default) or PostgreSQL (TEST_DATABASE_URL).

The suite runs on every core (pytest-xdist); each worker process has its own SQLite files or PostgreSQL schemas,
its own instance folder, and picks free ports. The schema always comes from the Alembic migrations, built once per
worker; each test then gets its own copy (SQLite: a copied file) or an emptied schema (PostgreSQL: TRUNCATE ...
RESTART IDENTITY). A test that asks for the demo catalog starts from a copy of a database seeded once per worker
(SQLite: a seeded file; PostgreSQL: its rows put back from a snapshot schema) instead of seeding it again.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade

from insightshop import create_app
from insightshop.extensions import db
from tests.api_conformance import ConformingClient

TEST_SECRET = "test-secret-" + uuid.uuid4().hex
POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


def pytest_report_header(config):
    return f"database: {'PostgreSQL ' + POSTGRES_URL if POSTGRES_URL else 'SQLite'}"


# Each test process has an instance folder of its own: the page cache's catalog generation file lives there, and a
# second test run in the same checkout (bumping it with every product it makes) must not end this run's cached pages.
INSTANCE_FOLDER = tempfile.mkdtemp(prefix="insightshop-tests-")


def _memoise_url_builders() -> None:
    """The suite builds an app per test, and each app compiles a URL builder for each of its ~170 routes (werkzeug
    generates and compiles Python code per rule: most of the cost of an app). A builder depends only on the rule's
    text, its parsed trace and its defaults, so the worker compiles each one once and every later app reuses it."""
    from werkzeug.routing.rules import Rule

    compile_builder = Rule._compile_builder
    builders: dict[tuple, object] = {}

    def memoised(self, append_unknown: bool = True):
        defaults = tuple(sorted((name, repr(value)) for name, value in (self.defaults or {}).items()))
        key = (self.rule, tuple(self._trace), defaults, append_unknown)
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]

    Rule._compile_builder = memoised


_memoise_url_builders()


def _app_for(url: str, **extra):
    config = {"APP_ENV": "testing", "SECRET_KEY": TEST_SECRET, "SQLALCHEMY_DATABASE_URI": url,
              "INSTANCE_PATH": INSTANCE_FOLDER, **extra}  # fmt: skip
    app = create_app(config)
    app.test_client_class = ConformingClient  # every /api answer is checked against the OpenAPI document
    return app


def _postgres_schema_url(base: str, schema: str) -> str:
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options={quote(f'-csearch_path={schema}')}"


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """The migrated schema every test starts from: ('sqlite', template file) or ('postgresql', url)."""
    if POSTGRES_URL:
        schema = worker_schema()
        engine = sa.create_engine(_normalise(POSTGRES_URL))
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        url = _postgres_schema_url(_normalise(POSTGRES_URL), schema)
        app = _app_for(url)
        with app.app_context():
            upgrade()
            _SEED_ROWS[url] = _rows_the_migrations_added()
            db.engine.dispose()
        yield ("postgresql", url)
        for reset_engine in _RESET_ENGINES.values():
            reset_engine.dispose()
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()
    else:
        template = tmp_path_factory.mktemp("db") / "template.db"
        app = _app_for(f"sqlite:///{template}")
        with app.app_context():
            upgrade()
            db.engine.dispose()
        yield ("sqlite", template)


def _normalise(url: str) -> str:
    from insightshop.config import normalise_database_url

    return normalise_database_url(url)


# Rows the migrations themselves insert (e.g. the starting categories), put back after each TRUNCATE so that
# PostgreSQL tests start from the same data as SQLite tests, which copy the migrated file.
_SEED_ROWS: dict[str, list[tuple[sa.Table, list[dict]]]] = {}


def _rows_the_migrations_added() -> list[tuple[sa.Table, list[dict]]]:
    seeded = []
    with db.engine.connect() as connection:
        for table in db.metadata.sorted_tables:
            rows = [dict(row._mapping) for row in connection.execute(sa.select(table))]
            if rows:
                seeded.append((table, rows))
    return seeded


# One engine per test schema for the resets between tests, kept for the worker's life (a fresh connection per test
# costs more than the reset itself).
_RESET_ENGINES: dict[str, sa.Engine] = {}


def _reset_engine(url: str) -> sa.Engine:
    if url not in _RESET_ENGINES:
        _RESET_ENGINES[url] = sa.create_engine(url, poolclass=sa.pool.StaticPool)
    return _RESET_ENGINES[url]


def _sequence_resets(connection, tables: list[str]) -> str:
    """One SELECT that sets every table's id sequence to continue after its rows (or start at 1 when empty)."""
    calls = []
    for name in tables:
        sequence = connection.execute(
            sa.text("SELECT pg_get_serial_sequence(:table, column_name) FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = :table AND column_name = 'id'"),
            {"table": name},
        ).scalar()  # fmt: skip
        if sequence is not None:
            calls.append(f"setval('{sequence}', COALESCE((SELECT MAX(id) FROM \"{name}\"), 0) + 1, false)")
    return f"SELECT {', '.join(calls)}" if calls else ""


# Per test schema (or snapshot): the statements that put it back, built once. Rows are removed with DELETE, with the
# foreign-key triggers off for that transaction (session_replication_role): on a few dozen small tables that is ten
# times quicker than TRUNCATE, which replaces every table's files.
_RESET_SQL: dict[tuple[str, str | None], list[str]] = {}


def _reset_statements(connection, url: str, snapshot: str | None) -> list[str]:
    key = (url, snapshot)
    if key not in _RESET_SQL:
        tables = _user_tables(connection)
        statements = ["SET LOCAL session_replication_role = replica"]
        statements += [f'DELETE FROM "{name}"' for name in tables]
        if snapshot:
            statements += [f'INSERT INTO "{name}" SELECT * FROM "{snapshot}"."{name}"' for name in _SNAPSHOTS[snapshot]]
        _RESET_SQL[key] = statements
        _RESET_SQL[(url, "sequences")] = [_sequence_resets(connection, tables)]
    return _RESET_SQL[key]


def _reset_postgres(url: str, snapshot: str | None) -> None:
    with _reset_engine(url).begin() as connection:
        connection.exec_driver_sql("; ".join(_reset_statements(connection, url, snapshot)))
        if snapshot is None:
            for table, rows in _SEED_ROWS.get(url, []):
                connection.execute(table.insert(), rows)
        sequences = _RESET_SQL[(url, "sequences")][0]
        if sequences:
            connection.exec_driver_sql(sequences)


def _empty_postgres(url: str) -> None:
    """Empty every table of the test schema but for the rows the migrations add."""
    _reset_postgres(url, None)


@pytest.fixture(scope="session")
def seeded_database(migrated_database, tmp_path_factory):
    """The migrated schema with the demo catalog seeded once: ('sqlite', file) or ('postgresql', snapshot schema)."""
    from insightshop.services.demo_catalog import seed_demo_catalog

    kind, source = migrated_database
    if kind == "sqlite":
        seeded = tmp_path_factory.mktemp("seeded") / "seeded.db"
        shutil.copyfile(source, seeded)
        url = f"sqlite:///{seeded}"
    else:
        _empty_postgres(source)
        url = source
    app = _app_for(url)
    with app.app_context():
        seed_demo_catalog()
        db.session.remove()
        db.engine.dispose()
    if kind == "sqlite":
        yield ("sqlite", seeded)
        return
    snapshot = f"{worker_schema()}_seeded"
    _snapshot_postgres(source, snapshot)
    yield ("postgresql", snapshot)
    engine = sa.create_engine(source)
    with engine.begin() as connection:
        connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{snapshot}" CASCADE'))
    engine.dispose()


@pytest.fixture
def database_url(request, migrated_database, tmp_path) -> str:
    """This test's own database, empty but for the migrations' rows, or seeded when it asks for demo_catalog."""
    kind, source = migrated_database
    seeded = request.getfixturevalue("seeded_database")[1] if "demo_catalog" in request.fixturenames else None
    if kind == "postgresql":
        if seeded:
            _restore_postgres(source, seeded)
        else:
            _empty_postgres(source)
        return source
    target = tmp_path / "test.db"
    shutil.copyfile(seeded or source, target)
    return f"sqlite:///{target}"


def worker_schema() -> str:
    """This test process's PostgreSQL schema (each xdist worker is a process of its own)."""
    return f"insightshop_test_{os.getpid()}"


def _user_tables(connection) -> list[str]:
    """Every table of the test schema (the search index too), parents before children, but alembic_version."""
    names = set(sa.inspect(connection).get_table_names()) - {"alembic_version"}
    ordered = [table.name for table in db.metadata.sorted_tables if table.name in names]
    return ordered + sorted(names - set(ordered))


# Per snapshot schema: its tables in insertion order.
_SNAPSHOTS: dict[str, list[str]] = {}


def _snapshot_postgres(url: str, snapshot: str) -> None:
    """Copy every table's rows into a schema of their own, to put back before each seeded test."""
    with _reset_engine(url).begin() as connection:
        connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{snapshot}" CASCADE'))
        connection.execute(sa.text(f'CREATE SCHEMA "{snapshot}"'))
        tables = _user_tables(connection)
        for name in tables:
            connection.execute(sa.text(f'CREATE TABLE "{snapshot}"."{name}" AS TABLE "{name}"'))
    _SNAPSHOTS[snapshot] = tables


def _restore_postgres(url: str, snapshot: str) -> None:
    """Empty the test schema and put the snapshot's rows back, sequences continuing after them."""
    _reset_postgres(url, snapshot)


@pytest.fixture
def app(database_url, tmp_path):
    app = _app_for(database_url)
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def htmx_client(app):
    """A client whose requests look like htmx's (HX-Request: true)."""
    client = app.test_client()
    client.environ_base["HTTP_HX_REQUEST"] = "true"
    return client


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def demo_catalog(app):
    """The app over a database holding the demo catalog (copied from the worker's seeded one: see database_url)."""
    return app


def pytest_addoption(parser):
    parser.addoption(
        "--test-order",
        default=None,
        help="'reverse', or an integer seed to shuffle the tests: checks that no test depends on another's leftovers",
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        parts = Path(str(item.fspath)).parts
        if "browser" in parts:
            item.add_marker(pytest.mark.browser)
        # pytest-xdist (--dist loadgroup): the live servers' tests run one after the other on one worker, so two
        # gunicorn fleets never compete for the two cores; a module with module-scoped set-up stays on one worker,
        # so that set-up runs once.
        if "live" in parts:
            item.add_marker(pytest.mark.xdist_group("live"))
        elif _uses_module_scoped_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    _reorder(items, config.getoption("--test-order"))


def _uses_module_scoped_fixture(item) -> bool:
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(definition.scope == "module" for defs in definitions.values() for definition in defs)


def _reorder(items: list, order: str | None) -> None:
    if not order:
        return
    if order == "reverse":
        items.reverse()
    else:
        import random

        random.Random(int(order)).shuffle(items)
