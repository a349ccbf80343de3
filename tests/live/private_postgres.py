"""A PostgreSQL server of a test's own, in a temporary directory, that the test may stop and start again (the
machine's shared server must never be stopped). And the shop data a live test needs, written through the ORM.

    with PrivatePostgres() as postgres:
        url = postgres.create_database("shop")      # postgresql+psycopg://root@127.0.0.1:<port>/shop
        postgres.stop()                              # pg_ctl stop -m fast: connections are cut at once
        postgres.start()

PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user in a directory it owns.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.live.servers import TEST_SECRET, free_port


def _server_binaries() -> Path:
    """Where initdb and pg_ctl are: POSTGRES_BIN, else pg_config's answer, else the newest Debian cluster version."""
    candidates = [os.environ.get("POSTGRES_BIN")]
    if shutil.which("pg_config"):
        candidates.append(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip())
    candidates += sorted((str(path) for path in Path("/usr/lib/postgresql").glob("*/bin")), reverse=True)
    for candidate in filter(None, candidates):
        if (Path(candidate) / "initdb").exists():
            return Path(candidate)
    # make test needs a PostgreSQL server on this machine anyway (its second half runs on one): say what is missing.
    pytest.fail("PostgreSQL's server binaries (initdb, pg_ctl) were not found; set POSTGRES_BIN to their folder")


class PrivatePostgres:
    def __init__(self):
        self.bin = _server_binaries()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="insightshop-pg-"))
        self.data = self.root / "data"
        self.log_path = self.root / "postgres.log"

    def _run(self, *command: str, timeout: float = 60) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}\n{self.log()}")

    def init(self) -> PrivatePostgres:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        # The superuser is called root, like the machine's server's, so the same URLs work; fsync off: a throwaway.
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "root", "-A", "trust", "--no-sync",
                  "--no-instructions", "-E", "UTF8", "--locale=C")  # fmt: skip
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path), "-o", options, "-w", "start"
        )

    def stop(self) -> None:
        """Fast shutdown: open connections are cut, new ones refused until start()."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"postgresql://root@127.0.0.1:{self.port}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://root@127.0.0.1:{self.port}/{name}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> PrivatePostgres:
        self.init().start()
        return self

    def __exit__(self, *exc) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def make_products(database_url: str, *specs: dict) -> list[dict]:
    """Products written through the ORM (tests.factories.make_product's keywords, e.g. {"name": …, "stock": 10,
    "sizes": ("L",)}), so the search index stays in sync; their ids and variant ids."""
    from insightshop import create_app
    from insightshop.extensions import db
    from tests.factories import make_product

    app = create_app({"APP_ENV": "testing", "SECRET_KEY": TEST_SECRET, "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        try:
            made = [make_product(**spec) for spec in specs]
            return [{"id": product.id, "variant_ids": [variant.id for variant in product.variants]} for product in made]
        finally:
            db.session.remove()
            db.engine.dispose()


def query(database_url: str, sql: str, *params):
    """One row of a query, read directly from the database (what the app wrote, not what it says)."""
    import psycopg

    with psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True) as connection:
        return connection.execute(sql, params).fetchone()
