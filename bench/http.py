"""HTTP benchmark: the shop under gunicorn (deploy/gunicorn.conf.py, production settings) driven by wrk, each URL's
req/s as a share of a hello-world Flask app served with the same settings in the same run.

    .venv/bin/python bench/http.py                          # SQLite and PostgreSQL, 3 × 4 s per URL, 16 connections
    .venv/bin/python bench/http.py --db sqlite --quick      # a smoke run: 1 × 2 s per URL
    .venv/bin/python bench/http.py --only home,api_search --cache off

The URLs: home, the catalog page for "white shirt", the same catalog as the htmx fragment the search box asks for
(HX-Request, HX-Target: results), a product page (a shirt of the demo catalog), add-to-cart as the product page's
htmx form posts it (a session cookie with its CSRF token; every request is a new visitor's first add, see below),
an offline chat turn as the assistant panel posts it ("show me white shirts"), and the JSON search
/api/products?q=white+shirt. The pages run twice: with the anonymous-page cache off (PAGE_CACHE=0) and on (the
default); a build without the cache ignores PAGE_CACHE and the rows say so (no X-Cache header seen).

wrk replays one fixed request, so a POST carries the same cookie every time: the session holds the CSRF secret and
no guest identity, so each add-to-cart makes a new guest with a one-line cart (a fixed guest would reach the
10-per-line limit after ten requests), and each chat turn starts a new conversation. Adding to a cart reserves no
stock; the chosen variant's stock is raised anyway so that it never runs short. Neither route is rate limited.

The databases: a SQLite file and a throwaway PostgreSQL database (tests/live/servers.py), both migrated and seeded
with the demo catalog. Memory is the rate-limit and cache storage unless --redis-url is given (as with `make run`).
wrk runs on the same machine as the servers and takes CPU from them; the ratio to hello-world, measured under the
same conditions, is the figure to compare across machines.

The targets (printed, informative; the script exits 0): home, catalog page, fragment and product page at least
1,000 req/s with the cache off and at least half of hello-world's req/s with it on, p99 under 50 ms, no errors.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

import httpx2  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from tests.live.servers import AppServer, flask_command, throwaway_postgres  # noqa: E402

WRK = shutil.which("wrk") or "/usr/bin/wrk"
QUERY = "white shirt"
CHAT_MESSAGE = "show me white shirts"
PAGE_TARGET_RPS = 1000
CACHED_SHARE = 0.5
P99_TARGET_MS = 50
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Target:
    key: str
    label: str
    method: str
    path: str
    headers: dict = field(default_factory=dict)
    body: str | None = None
    page: bool = False  # one of the pages the anonymous-page cache serves, with a target to meet


@dataclass
class Row:
    db: str
    key: str
    label: str
    cache: str
    rps: float = 0.0
    p50: float = 0.0
    p95: float = 0.0
    p99: float = 0.0
    errors: int = 0
    error_detail: str = ""
    ratio: float | None = None
    verdict: str = "—"
    failed: str | None = None


class HelloServer(AppServer):
    """bench/hello_app.py under the same gunicorn settings as the shop."""

    wsgi_app = "bench.hello_app:app"


def targets(product_id: int, variant: tuple[str, str], cookie: str, token: str) -> list[Target]:
    search = "/catalog?" + urlencode({"q": QUERY})
    form = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "HX-Request": "true",
            "X-CSRFToken": token}  # fmt: skip
    color, size = variant
    return [
        Target("home", "home /", "GET", "/", page=True),
        Target("catalog", f"catalog page {search}", "GET", search, page=True),
        # What the catalog's search form sends (hx-get, hx-target="#results").
        Target(
            "fragment",
            "catalog fragment (htmx)",
            "GET",
            search,
            page=True,
            headers={"HX-Request": "true", "HX-Target": "results", "HX-Trigger": "catalog-search"},
        ),  # fmt: skip
        Target("product", f"product page /products/{product_id}", "GET", f"/products/{product_id}", page=True),
        Target(
            "add_to_cart",
            "add to cart (POST, htmx)",
            "POST",
            "/cart/add",
            headers={**form, "HX-Target": "add-status"},
            body=urlencode(
                {"csrf_token": token, "product_id": product_id, "color": color, "size": size, "quantity": 1}
            ),
        ),  # fmt: skip
        Target(
            "chat",
            "chat turn, offline (POST, htmx)",
            "POST",
            "/chat/message",
            headers={**form, "HX-Target": "chat-log"},
            body=urlencode({"csrf_token": token, "message": CHAT_MESSAGE}),
        ),  # fmt: skip
        Target(
            "api_search", "JSON search /api/products?q=white+shirt", "GET", "/api/products?" + urlencode({"q": QUERY})
        ),  # fmt: skip
    ]


TARGET_KEYS = ("home", "catalog", "fragment", "product", "add_to_cart", "chat", "api_search")
PAGE_KEYS = ("home", "catalog", "fragment", "product")  # the pages with targets (and the page cache)


# --- wrk ---------------------------------------------------------------------------------------------------------


def _lua_string(value: str) -> str:
    level = "=" * 3
    assert f"]{level}]" not in value
    return f"[{level}[{value}]{level}]"


def wrk_script(target: Target) -> str:
    lines = [f"wrk.method = {_lua_string(target.method)}"]
    if target.body is not None:
        lines.append(f"wrk.body = {_lua_string(target.body)}")
    for name, value in target.headers.items():
        lines.append(f"wrk.headers[ {_lua_string(name)} ] = {_lua_string(value)}")
    # wrk counts statuses above 399 as errors.status; socket errors are the rest.
    lines.append("""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%.0f,"p95":%.0f,"p99":%.0f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
""")
    return "\n".join(lines)


def run_wrk(base_url: str, target: Target, duration: float, connections: int, threads: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(wrk_script(target))
    try:
        command = [WRK, f"-t{min(threads, connections)}", f"-c{connections}", f"-d{max(1, round(duration))}s",
                   "--timeout", "5s", "-s", script.name, base_url + target.path]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60)
    finally:
        os.unlink(script.name)
    found = [line for line in done.stdout.splitlines() if line.startswith("WRKJSON ")]
    if done.returncode != 0 or not found:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return json.loads(found[-1].removeprefix("WRKJSON "))


def measure(row: Row, base_url: str, target: Target, options) -> Row:
    """The median of options.rounds wrk runs (by req/s, with that run's latencies); errors of every run."""
    if options.warmup > 0:  # every worker imports, connects and compiles its templates before the clock runs
        run_wrk(base_url, target, options.warmup, options.connections, options.wrk_threads)
    runs = [run_wrk(base_url, target, options.duration, options.connections, options.wrk_threads)
            for _round in range(options.rounds)]  # fmt: skip
    for run in runs:
        seconds = run["duration_us"] / 1e6
        run["rps"] = run["requests"] / seconds if seconds else 0.0
    median = sorted(runs, key=lambda run: run["rps"])[len(runs) // 2]
    row.rps = median["rps"]
    row.p50, row.p95, row.p99 = (median[p] / 1000 for p in ("p50", "p95", "p99"))
    kinds = ("status", "connect", "read", "write", "timeout")
    totals = {kind: sum(run[kind] for run in runs) for kind in kinds}
    row.errors = sum(totals.values())
    row.error_detail = ", ".join(f"{totals[kind]} {kind}" for kind in kinds if totals[kind])
    return row


# --- the shop's data and a visitor's session ---------------------------------------------------------------------


def prepare_catalog(database_url: str) -> tuple[int, tuple[str, str]]:
    """The shirt the bench adds to carts (an active white shirt of the demo catalog) and its variant with the most
    stock, raised so that it never runs short."""
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            found = connection.execute(sa.text(
                "SELECT v.id, p.id, v.color, v.size FROM products p JOIN product_variants v ON v.product_id = p.id "
                "WHERE p.is_active AND lower(p.name) LIKE '%shirt%' "
                "ORDER BY (lower(p.color) = 'white') DESC, v.stock DESC, p.id LIMIT 1"
            )).first()  # fmt: skip
            if found is None:
                raise RuntimeError("the demo catalog has no active shirt")
            connection.execute(sa.text("UPDATE product_variants SET stock = 1000000 WHERE id = :id"),
                               {"id": found[0]})  # fmt: skip
    finally:
        engine.dispose()
    return found[1], (found[2], found[3])


def visitor_session(base_url: str, product_id: int) -> tuple[str, str]:
    """A first visit to the product page: the session cookie (holding only the CSRF secret) and its token."""
    with httpx2.Client(base_url=base_url, timeout=30) as client:
        page = client.get(f"/products/{product_id}")
        page.raise_for_status()
        token = CSRF_FIELD.search(page.text)
        cookie = page.cookies.get("session") or client.cookies.get("session")
    if not token or not cookie:
        raise RuntimeError("the product page gave no session cookie or CSRF token")
    return f"session={cookie}", token.group(1)


def preflight(base_url: str, target: Target) -> str | None:
    """One request exactly as wrk will send it: it must answer 200 (not a redirect to an error) and say what
    happened. Returns the X-Cache header of a second request (a cache hit if the page cache is on)."""
    with httpx2.Client(base_url=base_url, timeout=30) as client:
        for _attempt in range(2):
            response = client.request(target.method, target.path, headers=target.headers, content=target.body)
            client.cookies.clear()  # wrk keeps no cookies either
            if response.status_code != 200:
                raise RuntimeError(f"{target.method} {target.path} answered {response.status_code}: "
                                   f"{response.text[:300]}")  # fmt: skip
            if target.key == "add_to_cart" and "Added " not in response.text:
                raise RuntimeError(f"add to cart did not add: {response.text[:300]}")
            if target.key == "chat" and "chat" not in response.text.lower():
                raise RuntimeError(f"the chat turn answered no bubbles: {response.text[:300]}")
            if target.method != "GET":
                return None
    return response.headers.get("X-Cache")


# --- the run -----------------------------------------------------------------------------------------------------


@contextmanager
def database(kind: str):
    if kind == "postgres":
        with throwaway_postgres(seed_demo=True) as url:
            yield url
        return
    folder = Path(tempfile.mkdtemp(prefix="insightshop-bench-"))
    url = f"sqlite:///{folder / 'shop.db'}"
    try:
        flask_command(url, "db", "upgrade")
        flask_command(url, "seed-demo")
        yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def server_env(options, page_cache: str, data_cache: str = "1") -> dict:
    # ANTHROPIC_API_KEY empty: the assistant's offline engine answers, whatever this shell has set.
    return {"PAGE_CACHE": page_cache, "DATA_CACHE": data_cache, "ANTHROPIC_API_KEY": "",
            "GUNICORN_LOG_LEVEL": "warning"}  # fmt: skip


# Cache modes: "none" renders every page from the database; "off" renders every page but reuses the catalog data
# every visitor sees alike (DATA_CACHE); "on" serves anonymous visitors' pages whole from the page cache.
CACHE_MODES = {"none": ("0", "0", "none"), "off": ("0", "1", "off (data cache)"), "on": ("1", "1", "on")}


def bench_database(kind: str, options) -> list[Row]:
    rows: list[Row] = []
    with database(kind) as url:
        product_id, variant = prepare_catalog(url)
        sizing = {"workers": options.workers, "threads": options.threads}
        with HelloServer(database_url=url, env=server_env(options, "0"), **sizing) as hello:
            hello_target = Target("hello", "hello-world /", "GET", "/")
            baseline = measure(Row(kind, "hello", "hello-world Flask /", "—"), hello.url, hello_target, options)
        baseline.ratio = 1.0
        rows.append(baseline)
        report(baseline)
        chosen = list(CACHE_MODES) if options.cache == "all" else [options.cache]
        for mode in chosen:
            page_cache, data_cache, name = CACHE_MODES[mode]
            with AppServer(database_url=url, redis_url=options.redis_url, env=server_env(options, page_cache, data_cache),
                           **sizing) as shop:  # fmt: skip
                cookie, token = visitor_session(shop.url, product_id)
                for target in targets(product_id, variant, cookie, token):
                    if target.key not in options.only or (mode == "on" and not target.page):
                        continue
                    row = Row(kind, target.key, target.label, name if target.page else "n/a")
                    try:
                        seen = preflight(shop.url, target)
                        if target.page and mode == "on":
                            row.cache = f"on ({seen})" if seen else "on (no X-Cache)"
                        measure(row, shop.url, target, options)
                    except Exception as failure:  # one URL failing must not hide the others' figures
                        row.failed = str(failure)[:500]
                        print(f"  {target.key}: FAILED {row.failed}\n{shop.log()[-2000:]}", file=sys.stderr)
                    row.ratio = row.rps / baseline.rps if baseline.rps else None
                    row.verdict = verdict(row, baseline.rps, mode)
                    rows.append(row)
                    report(row)
    return rows


def verdict(row: Row, hello_rps: float, mode: str) -> str:
    if row.failed:
        return "FAIL (no figures)"
    if row.key not in PAGE_KEYS:
        return "—"
    misses = []
    if mode in ("none", "off") and row.rps < PAGE_TARGET_RPS:
        misses.append(f"< {PAGE_TARGET_RPS:,} req/s")
    if mode == "on" and row.rps < CACHED_SHARE * hello_rps:
        misses.append(f"< {CACHED_SHARE:.0%} of hello")
    if row.p99 >= P99_TARGET_MS:
        misses.append(f"p99 ≥ {P99_TARGET_MS} ms")
    if row.errors:
        misses.append("errors")
    return "PASS" if not misses else "FAIL: " + ", ".join(misses)


def report(row: Row) -> None:
    if row.failed:
        print(f"  {row.db:8} {row.label:44} {row.cache:15} FAILED: {row.failed}", flush=True)
        return
    errors = f"{row.errors}" + (f" ({row.error_detail})" if row.error_detail else "")
    ratio = f"{row.ratio:.2f}x" if row.ratio is not None else "—"
    print(f"  {row.db:8} {row.label:44} {row.cache:15} {row.rps:8.0f} req/s  p50 {row.p50:6.1f}  p95 {row.p95:6.1f}"
          f"  p99 {row.p99:6.1f} ms  errors {errors:6}  {ratio:>6} hello  {row.verdict}", flush=True)  # fmt: skip


def markdown(rows: list[Row]) -> str:
    lines = ["| DB | URL | page cache | req/s | p50 ms | p95 ms | p99 ms | errors | × hello-world | target |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]  # fmt: skip
    for row in rows:
        if row.failed:
            lines.append(f"| {row.db} | {row.label} | {row.cache} | failed | | | | | | {row.verdict} |")
            continue
        errors = f"{row.errors}" + (f" ({row.error_detail})" if row.error_detail else "")
        lines.append(f"| {row.db} | {row.label} | {row.cache} | {row.rps:,.0f} | {row.p50:.1f} | {row.p95:.1f} | "
                     f"{row.p99:.1f} | {errors} | {row.ratio:.2f} | {row.verdict} |")  # fmt: skip
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--duration", type=float, default=4.0, help="seconds of each wrk run (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="wrk runs per URL; the median is reported (default 3)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds of wrk before each measurement")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 s per URL")
    parser.add_argument("--only", default=",".join(TARGET_KEYS), help=f"comma-separated: {','.join(TARGET_KEYS)}")
    parser.add_argument("--cache", choices=("none", "off", "on", "all"), default="all",
                        help="pages with no cache at all, with only the data cache (PAGE_CACHE=0), with the page "
                        "cache (the default), or all three")  # fmt: skip
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or
                        2 * multiprocessing.cpu_count()), help="gunicorn workers (default as deploy/serve)")  # fmt: skip
    parser.add_argument("--threads", type=int, default=int(os.environ.get("WEB_THREADS") or 4))
    parser.add_argument("--redis-url", default=None, help="rate limits and caches in Redis instead of memory")
    options = parser.parse_args(argv)
    if options.quick:
        options.duration, options.rounds = 2.0, 1
    if options.warmup is None:
        options.warmup = 0.5 if options.quick else 1.0
    options.only = [key.strip() for key in options.only.split(",") if key.strip()]
    unknown = set(options.only) - set(TARGET_KEYS)
    if unknown:
        parser.error(f"unknown --only keys: {', '.join(sorted(unknown))}")
    return options


def main(argv=None) -> int:
    options = parse_args(argv)
    if not Path(WRK).exists():
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 1
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    print(f"HTTP bench: gunicorn {options.workers} workers x {options.threads} threads (deploy/gunicorn.conf.py, "
          f"production settings), wrk {options.connections} connections / {options.wrk_threads} threads, "
          f"median of {options.rounds} runs of {options.duration:g} s per URL after {options.warmup:g} s warm-up; {multiprocessing.cpu_count()} cores; "
          f"commit {commit.stdout.strip() or '?'}; storage {'Redis' if options.redis_url else 'memory'}",
          flush=True)  # fmt: skip
    rows: list[Row] = []
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    for kind in ("sqlite", "postgres") if options.db == "both" else (options.db,):
        print(f"\n{kind}:", flush=True)
        rows += bench_database(kind, options)
    print(f"\nTargets (pages: ≥ {PAGE_TARGET_RPS:,} req/s with the cache off, ≥ {CACHED_SHARE:.0%} of hello-world "
          f"with it on, p99 < {P99_TARGET_MS} ms, no errors; informative):")  # fmt: skip
    for row in rows:
        if row.verdict != "—":
            print(f"  {row.db:8} {row.label:44} cache {row.cache:15} {row.verdict}")
    print(f"\n{markdown(rows)}\n")
    if any(row.cache == "on (no X-Cache)" for row in rows):
        print(
            "on (no X-Cache): the server answered without an X-Cache header with PAGE_CACHE on, so this build has no "
            "page cache and those rows measure the same code as the cache-off ones."
        )
    if any(row.cache == "on (miss)" for row in rows):
        print("on (miss): the second request of the page was still a miss; the cache did not keep it.")
    print(machine_load(load_before, os.getloadavg()[0]))
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


def machine_load(before: float, after: float) -> str:
    """The bench owns the machine only if nothing else ran: the load average before it (nothing of ours running yet)
    says whether the figures are the machine's or what other processes left of it."""
    cores = multiprocessing.cpu_count()
    line = f"Load average (1 min) before the run {before:.1f}, after {after:.1f}, on {cores} cores."
    if before > 0.5 * cores:
        line += (
            " WARNING: other processes were using the CPU when the run began; the figures are lower than the machine's."
        )
    return line


if __name__ == "__main__":
    sys.exit(main())
