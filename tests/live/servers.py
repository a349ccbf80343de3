"""Real servers for the tests that need them: gunicorn serving the shop exactly as `make run` does (the production
settings of deploy/serve), and a throwaway PostgreSQL database per test module.

    with throwaway_postgres() as url:            # a fresh database, migrated, dropped afterwards
        with AppServer(database_url=url, redis_url=...) as server:
            requests.get(server.url + "/healthz")
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
POSTGRES_ADMIN_URL = "postgresql://root@127.0.0.1:5432/postgres"
TEST_SECRET = "live-server-test-secret-" + "x" * 24


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def flask_command(database_url: str, *args: str, env: dict | None = None, check: bool = True):
    """`flask --app insightshop ARGS` against DATABASE_URL (development settings: for setting data up)."""
    inherited = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "TEST_DATABASE_URL")}
    environment = {**inherited, "DATABASE_URL": database_url, "APP_ENV": "development", "SECRET_KEY": TEST_SECRET,
                   **(env or {})}  # fmt: skip
    return subprocess.run([str(VENV_BIN / "flask"), "--app", "insightshop", *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, check=check, timeout=300)  # fmt: skip


# Databases migrated (and seeded) once per test process, copied for each use: a migration or a seed is a process
# of its own (seconds each), a copy is a file copy. PostgreSQL: template databases; SQLite: files.
_POSTGRES_TEMPLATES: dict[bool, str] = {}
_SQLITE_TEMPLATES: dict[bool, Path] = {}


def _prepare(url: str, seed_demo: bool) -> None:
    flask_command(url, "db", "upgrade")
    if seed_demo:
        flask_command(url, "seed-demo")


def _postgres_template(seed_demo: bool) -> str:
    import psycopg

    if seed_demo not in _POSTGRES_TEMPLATES:
        name = f"live_template_{os.getpid()}_{'seeded' if seed_demo else 'migrated'}"
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
        _prepare(f"postgresql+psycopg://root@127.0.0.1:5432/{name}", seed_demo)
        _POSTGRES_TEMPLATES[seed_demo] = name
        atexit.register(_drop_database, name)
    return _POSTGRES_TEMPLATES[seed_demo]


def _drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepared_sqlite(directory: Path, *, seed_demo: bool = False) -> str:
    """A migrated (and, with seed_demo, seeded) SQLite database in directory: its URL."""
    if seed_demo not in _SQLITE_TEMPLATES:
        template = Path(tempfile.mkdtemp(prefix="insightshop-live-")) / "template.db"
        _prepare(f"sqlite:///{template}", seed_demo)
        _SQLITE_TEMPLATES[seed_demo] = template
    target = Path(directory) / "shop.db"
    shutil.copyfile(_SQLITE_TEMPLATES[seed_demo], target)
    return f"sqlite:///{target}"


@contextmanager
def throwaway_postgres(*, migrate: bool = True, seed_demo: bool = False):
    """A new PostgreSQL database on the machine's server (never the suite's `test` database), dropped after."""
    import psycopg

    name = f"live_{uuid.uuid4().hex[:12]}"
    template = f' TEMPLATE "{_postgres_template(seed_demo)}"' if migrate else ""
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"{template}')
    try:
        yield f"postgresql+psycopg://root@127.0.0.1:5432/{name}"
    finally:
        _drop_database(name)


class AppServer:
    """gunicorn with deploy/gunicorn.conf.py serving insightshop.wsgi:app (shop + /mcp) with production settings.
    `env` adds or overrides environment variables; the server's output is kept in `log_path`. A subclass may serve
    another WSGI app under the same settings (`wsgi_app`, "module:attribute" importable from the repository root)."""

    wsgi_app = "insightshop.wsgi:app"

    def __init__(self, *, database_url: str, redis_url: str | None = None, port: int | None = None,
                 workers: int = 2, threads: int = 4, env: dict | None = None, secret_key: str = TEST_SECRET,
                 public_base_url: str | None = None):  # fmt: skip
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = Path(tempfile.mkdtemp(prefix="insightshop-live-"))
        self.log_path = self.workdir / "server.log"
        self.env = {
            **{key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "TEST_DATABASE_URL")},
            "APP_ENV": "production",
            "SECRET_KEY": secret_key,
            "DATABASE_URL": database_url,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": str(workers),
            "WEB_THREADS": str(threads),
            "PUBLIC_BASE_URL": public_base_url or self.url,
            "TRUSTED_HOSTS": "127.0.0.1,localhost",
            "ALLOW_OFFLINE_PAYMENTS": "1",
            "PROMETHEUS_MULTIPROC_DIR": str(self.workdir / "metrics"),
            "RECEIPT_STORAGE_DIR": str(self.workdir / "receipts"),
            **({"REDIS_URL": redis_url} if redis_url else {}),
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> AppServer:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), self.wsgi_app],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.log()}")
            try:
                if httpx2.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx2.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer /healthz within {timeout}s:\n{self.log()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class RedisServer:
    """A private redis-server on a free port (no persistence), so a test may stop and start it under traffic."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = Path(tempfile.mkdtemp(prefix="insightshop-redis-"))
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 10) -> RedisServer:
        import redis

        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--daemonize", "no"],
            stdout=(self.workdir / "redis.log").open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return self
            except redis.ConnectionError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class NginxProxy:
    """nginx on a free port with deploy/nginx.conf rendered for `upstreams` (host:port), everything under a temp
    dir: the rendered file, pid, logs and temp paths (`nginx -p`)."""

    def __init__(self, upstreams: list[str], port: int | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.prefix = Path(tempfile.mkdtemp(prefix="insightshop-nginx-"))
        self.config_path = self.prefix / "nginx.conf"
        for folder in ("logs", "temp"):
            (self.prefix / folder).mkdir()
        self.config_path.write_text(render_nginx_config(
            NGINX_LISTEN=f"127.0.0.1:{self.port}",
            APP_SERVERS=" ".join(f"server {upstream};" for upstream in upstreams),
        ))  # fmt: skip
        self.process: subprocess.Popen | None = None

    def command(self, *extra: str) -> list[str]:
        # The master runs as root here: its workers too, so they may write the temp dir (uploads are buffered there).
        return ["nginx", "-p", f"{self.prefix}/", "-c", str(self.config_path), "-e", "logs/error.log",
                "-g", "daemon off; user root;", *extra]  # fmt: skip

    def check(self) -> subprocess.CompletedProcess:
        """`nginx -t` on the rendered file."""
        return subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)

    def start(self, timeout: float = 10) -> NginxProxy:
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                        start_new_session=True)  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited ({self.process.returncode}):\n{self.error_log()}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not listen on {self.port}:\n{self.error_log()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)  # graceful: finish the requests in flight
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)

    def error_log(self) -> str:
        path = self.prefix / "logs" / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> NginxProxy:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def render_nginx_config(**values: str) -> str:
    """deploy/nginx.conf with its ${NAME} placeholders filled, as `envsubst '${NAME} ...'` does (nginx's own
    $variables stay)."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, value in values.items():
        text = text.replace("${" + name + "}", value)
    return text
