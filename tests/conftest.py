"""Test fixtures: a fresh app and database per test, on SQLite (default) or PostgreSQL (TEST_DATABASE_URL).

The suite runs on every core (pytest-xdist); each worker process has its own SQLite files or PostgreSQL schemas,
its own instance folder, and picks free ports. The schema always comes from the Alembic migrations, built once per
worker, and the demo catalog is seeded once per worker into a database of its own.

Each test runs inside one transaction that its end rolls back (tests/transactions.py), on the worker's empty or
seeded database. A test that must commit for real (another thread, process, engine or app over its database) is
marked `commits` (set by hand, or by tests/conftest.py for live servers, browser tests and tests that ask for
`database_url` themselves): it gets its own copy (SQLite: a copied file) or a schema put back first (PostgreSQL:
emptied with DELETE, the seeded rows copied back from a snapshot schema).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from insightshop import create_app
from insightshop.extensions import db
from insightshop.services import rate_limit_database, rate_limit_storage
from insightshop.web import page_cache
from tests import transactions
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
        url = _migrated_postgres_schema(worker_schema())
        with _app_for(url).app_context():
            _SEED_ROWS[url] = _rows_the_migrations_added()
            db.engine.dispose()
        yield ("postgresql", url)
        for reset_engine in _RESET_ENGINES.values():
            reset_engine.dispose()
        _drop_schemas(worker_schema())
    else:
        template = tmp_path_factory.mktemp("db") / "template.db"
        app = _app_for(f"sqlite:///{template}")
        with app.app_context():
            upgrade()
            db.engine.dispose()
        yield ("sqlite", template)


def _migrated_postgres_schema(schema: str) -> str:
    """A new schema of this worker's, built by the migrations: its URL."""
    _drop_schemas(schema)
    engine = sa.create_engine(_normalise(POSTGRES_URL))
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    url = _postgres_schema_url(_normalise(POSTGRES_URL), schema)
    app = _app_for(url)
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return url


def _drop_schemas(*schemas: str) -> None:
    engine = sa.create_engine(_normalise(POSTGRES_URL))
    with engine.begin() as connection:
        for schema in schemas:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


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
        _continue_sequences(connection, url)


def _continue_sequences(connection, url: str) -> None:
    """Every id sequence continues after its table's rows (a rollback keeps what nextval() handed out)."""
    _reset_statements(connection, url, None)  # builds the schema's statements once
    sequences = _RESET_SQL[(url, "sequences")][0]
    if sequences:
        connection.exec_driver_sql(sequences)


def _empty_postgres(url: str) -> None:
    """Empty every table of the test schema but for the rows the migrations add."""
    _reset_postgres(url, None)


@pytest.fixture(scope="session")
def seeded_database(migrated_database, tmp_path_factory):
    """The migrated schema with the demo catalog seeded once: ('sqlite', url, file) or ('postgresql', schema url,
    snapshot schema). On PostgreSQL rolled-back tests run in the seeded schema and a `commits` test gets the snapshot's
    rows; on SQLite the file is the pristine copy: rolled-back tests share a copy of it (_shared_sqlite_copy) and a
    `commits` test gets one of its own."""
    kind, source = migrated_database
    if kind == "sqlite":
        seeded = tmp_path_factory.mktemp("seeded") / "seeded.db"
        shutil.copyfile(source, seeded)
        _seed(f"sqlite:///{seeded}")
        yield ("sqlite", f"sqlite:///{seeded}", seeded)
        return
    schema, snapshot = f"{worker_schema()}_seeded", f"{worker_schema()}_snapshot"
    url = _migrated_postgres_schema(schema)
    _seed(url)
    _snapshot_postgres(url, snapshot)
    yield ("postgresql", url, snapshot)
    _drop_schemas(schema, snapshot)


def _seed(url: str) -> None:
    from insightshop.services.demo_catalog import seed_demo_catalog

    app = _app_for(url)
    with app.app_context():
        seed_demo_catalog()
        db.session.remove()
        db.engine.dispose()


def _commits(request) -> bool:
    return request.node.get_closest_marker("commits") is not None


@pytest.fixture
def database_url(request, migrated_database, tmp_path):
    """This test's database, empty but for the migrations' rows, or seeded when it asks for demo_catalog: the
    worker's own, inside a transaction the `app` fixture opens and rolls back, or for a `commits` test a fresh copy."""
    kind, source = migrated_database
    seeded = request.getfixturevalue("seeded_database") if "demo_catalog" in request.fixturenames else None
    if not _commits(request):
        yield from _shared_database(kind, source, seeded)
        return
    if kind == "postgresql":
        if seeded:
            _restore_postgres(source, seeded[2])
        else:
            _empty_postgres(source)
        _DIRTY.add(source)
        yield source
        return
    target = tmp_path / "test.db"
    shutil.copyfile(seeded[2] if seeded else source, target)
    yield f"sqlite:///{target}"


# PostgreSQL schemas a `commits` test left rows in: emptied before the next rolled-back test uses them.
_DIRTY: set[str] = set()


def _shared_database(kind: str, source, seeded):
    """The worker's database for a rolled-back test. On PostgreSQL the id sequences are put back afterwards (a
    rollback keeps what nextval() handed out); on SQLite a commit that got past the transaction fails the test."""
    if kind == "postgresql":
        url = seeded[1] if seeded else source
        if url in _DIRTY:
            _empty_postgres(url)
            _DIRTY.discard(url)
        yield url
        _restart_sequences(url)
        return
    pristine = Path(seeded[2] if seeded else source)
    path = _shared_sqlite_copy(pristine)
    commits_before = _sqlite_commit_counter(path)
    yield f"sqlite:///{path}"
    if _sqlite_commit_counter(path) != commits_before:
        shutil.copyfile(pristine, path)  # the next test starts clean all the same
        pytest.fail("this test committed to the worker's shared database past its transaction: "
                    "mark it @pytest.mark.commits", pytrace=False)  # fmt: skip


def _shared_sqlite_copy(pristine: Path) -> Path:
    """The worker's copy of a template that rolled-back tests share (the template itself stays what `commits`
    tests copy)."""
    shared = pristine.with_name(f"{pristine.stem}-shared.db")
    if not shared.exists():
        shutil.copyfile(pristine, shared)
    return shared


def _sqlite_commit_counter(path: Path) -> bytes:
    """SQLite's file change counter (header bytes 24-27), which every committed write transaction increments."""
    with open(path, "rb") as database:
        database.seek(24)
        return database.read(4)


def _restart_sequences(url: str) -> None:
    with _reset_engine(url).begin() as connection:
        _continue_sequences(connection, url)


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
def app(request, database_url, tmp_path, monkeypatch):
    if _commits(request):
        app = _app_for(database_url)
        app.instance_path = str(tmp_path / "instance")
        with app.app_context():
            yield app
            db.session.remove()
            db.engine.dispose()
        return
    app = _shared_app(database_url)
    saved = _lend(app, str(tmp_path / "instance"))
    try:
        with app.app_context():
            held = transactions.hold(db.engine)
            # The rate-limit counters wait for SQLite's write lock unless the request's own connection holds it;
            # with one held connection there is no other connection to wait for (see tests/transactions.py).
            monkeypatch.setattr(rate_limit_database, "_request_holds_sqlite_write", lambda engine: False)
            yield app
            db.session.remove()
            held.release()
    finally:
        _give_back(app, saved)


# Per worker, one app per shared database (empty, seeded), built on its first rolled-back test and lent to every
# later one. What a test changes on it — configuration, request hooks, the WSGI wrapping (the page cache's), its
# extensions, the instance folder — is put back afterwards, and each test gets an empty page cache and rate-limit
# memory of its own. A test that commits builds an app of its own.
_SHARED_APPS: dict[str, Flask] = {}
_HOOKS = ("before_request_funcs", "after_request_funcs", "teardown_request_funcs", "url_value_preprocessors",
          "url_default_functions", "template_context_processors")  # fmt: skip


def _shared_app(url: str) -> Flask:
    if url not in _SHARED_APPS:
        _SHARED_APPS[url] = _app_for(url)
    return _SHARED_APPS[url]


def _lend(app: Flask, instance_path: str) -> dict:
    saved = {
        "config": dict(app.config),
        "wsgi_app": app.wsgi_app,
        "hooks": {name: {key: list(funcs) for key, funcs in getattr(app, name).items()} for name in _HOOKS},
        "extensions": dict(app.extensions),
        "instance_path": app.instance_path,
    }
    app.instance_path = instance_path
    app.extensions["page_cache"] = page_cache.new_cache(app)
    counters = app.extensions[rate_limit_storage.EXTENSION_KEY]  # its memory (counts made while the store was busy)
    app.extensions[rate_limit_storage.EXTENSION_KEY] = rate_limit_storage.CounterStorage(
        counters.primary, counters.retry_seconds, counters.stand_in
    )
    app._got_first_request = False  # a test may still set the app up (the page cache's hooks): undone afterwards
    return saved


def _give_back(app: Flask, saved: dict) -> None:
    app.config.clear()
    app.config.update(saved["config"])
    app.wsgi_app = saved["wsgi_app"]
    for name, hooks in saved["hooks"].items():
        getattr(app, name).clear()
        getattr(app, name).update(hooks)
    app.extensions.clear()
    app.extensions.update(saved["extensions"])
    app.instance_path = saved["instance_path"]


@pytest.fixture(autouse=True)
def _event_loop_of_its_own(request):
    """A test that is not a browser test runs with no event loop marked running in its thread: the worker's
    Chromium (tests/browser/conftest.py) leaves Playwright's loop marked running between browser tests, and
    asyncio.run or anyio refuse to start inside a running loop. The mark is put back for the next browser test."""
    if request.node.get_closest_marker("browser"):
        yield
        return
    playwright_loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(playwright_loop)


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
        if "live" in parts or "browser" in parts or _asks_for_the_database_itself(item):
            item.add_marker(pytest.mark.commits)
        # pytest-xdist (--dist loadgroup): the live servers' tests run one after the other on one worker, so two
        # gunicorn fleets never compete for the two cores; a module with module-scoped set-up stays on one worker,
        # so that set-up runs once.
        if "live" in parts:
            item.add_marker(pytest.mark.xdist_group("live"))
        elif _uses_module_scoped_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    _reorder(items, config.getoption("--test-order"))


# The fixtures that build the test's app over its database_url; any other fixture (or test) asking for the URL
# opens the database another way (a second app, a subprocess, its own engine) and so must see real commits.
_APP_FIXTURES = {"app", "database_url"}


def _asks_for_the_database_itself(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    if "database_url" in info.argnames:
        return True
    return any(
        "database_url" in definition.argnames and definition.argname not in _APP_FIXTURES
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
    )


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
