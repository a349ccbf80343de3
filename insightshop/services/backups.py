"""Backing up the shop's database to a file and restoring it: pg_dump / pg_restore on PostgreSQL, SQLite's online
backup API on SQLite. Restoring replaces every table; run it while the app is idle (stopped or in maintenance)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from ..extensions import db
from . import page_cache
from .errors import Invalid, Unavailable

PG_DUMP_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"
# The test suite (and a shared server) give each app a schema through libpq's options=-csearch_path=…
SEARCH_PATH = re.compile(r"-c\s*search_path=([^\s,]+)")


CACHE_NOT_ENDED = (
    "Redis could not be reached to end the cached pages: app servers may show pages from before the restore until "
    "they expire (PAGE_CACHE_SECONDS). Run `flask --app insightshop cache clear` once Redis is back."
)


@dataclass(frozen=True)
class BackupReport:
    """What a backup wrote or a restore put back: the file, its size and each table's row count."""

    path: Path
    size_bytes: int
    tables: dict[str, int]
    warnings: tuple[str, ...] = ()

    @property
    def rows(self) -> int:
        return sum(self.tables.values())


def describe_database() -> str:
    """The database the app uses, fit to print (no password)."""
    return db.engine.url.render_as_string(hide_password=True)


def backup_database(path: str | Path) -> BackupReport:
    """Write a consistent copy of the whole database to path (replaced only once the copy is complete)."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    partial.touch(mode=0o600)  # a backup holds password hashes and addresses: readable by its owner only
    try:
        if _is_postgres():
            _pg_dump(partial)
        else:
            _sqlite_copy(_sqlite_file(), partial)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return BackupReport(target, target.stat().st_size, table_row_counts())


def restore_database(path: str | Path) -> BackupReport:
    """Replace the database's contents with a backup made by backup_database (same kind of database)."""
    source = Path(path)
    _check_backup_file(source)
    # Pooled connections would keep reading the old file (SQLite) or hold locks the restore's DROPs wait on.
    db.session.remove()
    db.engine.dispose()
    if _is_postgres():
        _pg_restore(source)
    else:
        _sqlite_copy(source, _sqlite_file())
    db.engine.dispose()
    # Cached pages outlive the app's restart (in Redis, or under instance/): they must not show the old catalog.
    warnings = () if page_cache.catalog_replaced() else (CACHE_NOT_ENDED,)
    return BackupReport(source, source.stat().st_size, table_row_counts(), warnings)


def table_row_counts() -> dict[str, int]:
    """Rows in every table of the database (the app's schema), by table name."""
    with db.engine.connect() as connection:
        names = sorted(sa.inspect(connection).get_table_names())
        return {name: connection.scalar(sa.select(sa.func.count()).select_from(sa.table(name))) or 0 for name in names}


def _is_postgres() -> bool:
    return db.engine.url.get_backend_name() == "postgresql"


def _check_backup_file(source: Path) -> None:
    if not source.is_file():
        raise Invalid(f"{source} is not a file")
    with source.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    expected = PG_DUMP_MAGIC if _is_postgres() else SQLITE_MAGIC
    if not head.startswith(expected):
        kind = "a pg_dump custom-format archive" if _is_postgres() else "an SQLite database"
        raise Invalid(f"{source} is not {kind}: this database can only be restored from one")


# SQLite ------------------------------------------------------------------------------------------------------------


def _sqlite_file() -> str:
    name = db.engine.url.database
    if not name or name == ":memory:" or name.startswith("file:"):
        raise Invalid("Only an SQLite database in a file can be backed up or restored")
    return name


def _sqlite_copy(source: str | Path, target: str | Path) -> None:
    """Page-by-page copy with SQLite's online backup API: consistent even while others read the source."""
    with closing(sqlite3.connect(source)) as reader, closing(sqlite3.connect(target)) as writer:
        reader.backup(writer)


# PostgreSQL --------------------------------------------------------------------------------------------------------


def _pg_dump(target: Path) -> None:
    command = [_binary("pg_dump"), "--format=custom", f"--file={target}"]
    schema = _schema()
    if schema:  # only the app's schema, not its neighbours' on a shared database
        command.append(f"--schema={schema}")
    _run([*command, f"--dbname={_libpq_url()}"])


def _pg_restore(source: Path) -> None:
    # One transaction: a restore that fails halfway leaves the database as it was, not half replaced.
    command = [_binary("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction"]
    _run([*command, f"--dbname={_libpq_url()}", str(source)])


def _libpq_url() -> str:
    """The SQLAlchemy URL as libpq reads it: no "+psycopg" driver, and no password (that goes in PGPASSWORD, where
    `ps` cannot show it)."""
    return db.engine.url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)


def _schema() -> str | None:
    options = db.engine.url.query.get("options") or ""
    if isinstance(options, tuple):
        options = " ".join(options)
    found = SEARCH_PATH.search(options)
    return found.group(1).strip('"') if found else None


def _binary(name: str) -> str:
    found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
    if found is None:
        raise Unavailable(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(command: list[str]) -> None:
    env = dict(os.environ)
    if db.engine.url.password:
        env["PGPASSWORD"] = db.engine.url.password
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if finished.returncode != 0:
        detail = finished.stderr.strip().splitlines()[-5:]
        raise Unavailable(f"{Path(command[0]).name} failed: " + " ".join(detail))
