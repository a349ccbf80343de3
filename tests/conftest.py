"""Test fixtures: a fresh app and database per test, on SQLite (default) or PostgreSQL (TEST_DATABASE_URL).

The schema always comes from the Alembic migrations, built once per session; each test then gets
its own copy (SQLite: a copied file) or an emptied schema (PostgreSQL: TRUNCATE ... RESTART IDENTITY).
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
        schema = f"insightshop_test_{os.getpid()}"
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


def _empty_postgres(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        tables = [name for name in sa.inspect(connection).get_table_names() if name != "alembic_version"]
        if tables:
            quoted = ", ".join(f'"{name}"' for name in tables)
            connection.execute(sa.text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
        for table, rows in _SEED_ROWS.get(url, []):
            connection.execute(table.insert(), rows)
            if "id" in table.c:  # later inserts continue after the seeded ids
                connection.execute(
                    sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f'(SELECT MAX(id) FROM "{table.name}"))'
                    )
                )
    engine.dispose()


@pytest.fixture
def database_url(migrated_database, tmp_path) -> str:
    kind, source = migrated_database
    if kind == "postgresql":
        _empty_postgres(source)
        return source
    target = tmp_path / "test.db"
    shutil.copyfile(source, target)
    return f"sqlite:///{target}"


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
    from insightshop.services.demo_catalog import seed_demo_catalog

    seed_demo_catalog()
    return app


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.browser)
