"""Schemathesis against the real deployment: gunicorn with production settings (tests/live/servers.py's AppServer)
on a throwaway PostgreSQL database seeded with the demo catalog, over HTTP.

    .venv/bin/python bench/fuzz_http.py                     # 50 fuzzed requests per operation
    .venv/bin/python bench/fuzz_http.py --max-examples 10   # a shorter run
    .venv/bin/python bench/fuzz_http.py --only-path /api/cart

The same run as tests/api/test_schemathesis.py (in process, SQLite, 25 per operation), through its shared pieces
(tests/api/fuzzing.py): every operation of /api/openapi.json as the server serves it, the coverage phase plus
--max-examples fuzzed requests (valid and invalid) each, the callers taking turns (anonymous, guest, customer,
admin) with a fresh token per request, and the stage set back before each one. The tokens and the reset are made by a
staging app in this process on the same database (so guest tokens do not count against the server's per-client
limit). Every answer must be free of server errors and conform to the document (status, content type, schema).

Rate limits: the production limits that the environment sets (logins, guest tokens, checkout, reviews, receipts,
categorisation) are raised for this server, otherwise most answers of those operations would be 429 and say
nothing; --production-limits keeps them. The limits fixed in code (10 logins and 5 password resets per hour per
client on /api/auth) stay: their 429s are documented answers and are counted in the summary.

Exits 1 on any 5xx or any answer that does not conform; the failures are listed with a curl command to replay them.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

import schemathesis  # noqa: E402
from schemathesis.core.failures import Failure, FailureGroup  # noqa: E402
from schemathesis.core.result import Ok  # noqa: E402
from schemathesis.pytest.lazy import get_all_tests  # noqa: E402

from insightshop import create_app  # noqa: E402
from insightshop.extensions import db  # noqa: E402
from tests.api.fuzzing import CHECKS, credentials, make_config, next_role, seed_stage  # noqa: E402
from tests.live.servers import TEST_SECRET, AppServer, throwaway_postgres  # noqa: E402

RAISED = "100000 per minute"
ENV_LIMITS = ("LOGIN_LIMIT_PER_ACCOUNT", "LOGIN_LIMIT_PER_CLIENT", "GUEST_LIMIT_PER_CLIENT", "CHECKOUT_LIMIT_PER_CLIENT",
              "CHECKOUT_LIMIT_PER_OWNER", "REVIEW_LIMIT_PER_CLIENT", "REVIEW_LIMIT_PER_AUTHOR", "RECEIPT_UPLOAD_LIMIT",
              "CATEGORIZE_LIMIT_PER_USER", "CATEGORIZE_LIMIT_PER_CLIENT")  # fmt: skip


class Tally:
    """What the run saw: answers per operation and status, and each distinct failure once (with its first case)."""

    def __init__(self) -> None:
        self.statuses: defaultdict[str, Counter] = defaultdict(Counter)
        self.failures: dict[tuple[str, str], dict] = {}
        self.failure_counts: Counter = Counter()
        self.errors: list[str] = []

    def fail(self, operation: str, role: str, title: str, detail: str, curl: str) -> None:
        key = (operation, title)
        self.failure_counts[key] += 1
        self.failures.setdefault(key, {"role": role, "detail": detail, "curl": curl})

    @property
    def cases(self) -> int:
        return sum(sum(counter.values()) for counter in self.statuses.values())

    def count(self, predicate) -> int:
        return sum(n for counter in self.statuses.values() for status, n in counter.items() if predicate(status))


def case_runner(staging, server: AppServer, tally: Tally):
    """The test every generated case runs: call the server as the caller whose turn it is, record the answer and
    every failure instead of stopping at the first one."""

    def run_case(case):
        label = case.operation.label
        role = next_role(label)
        headers = credentials(staging, role)
        try:
            response = case.call(base_url=server.url, headers=headers, timeout=30)
        except Exception as error:  # the connection itself failed: a dead worker or a malformed request
            tally.statuses[label]["transport error"] += 1
            tally.fail(label, role, f"transport error: {type(error).__name__}", str(error)[:300], "")
            return
        tally.statuses[label][response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (Failure, FailureGroup) as failure:
            found = failure.exceptions if isinstance(failure, FailureGroup) else (failure,)
            for one in found:
                tally.fail(label, role, f"{one.title} ({response.status_code})", one.message[:600],
                           case.as_curl_command(headers=headers))  # fmt: skip

    return run_case


def server_env(production_limits: bool) -> dict:
    return {"GUNICORN_LOG_LEVEL": "warning", "ANTHROPIC_API_KEY": "",
            **({} if production_limits else dict.fromkeys(ENV_LIMITS, RAISED))}  # fmt: skip


def run(options) -> int:
    started = time.monotonic()
    tally = Tally()
    with throwaway_postgres(seed_demo=True) as url:
        staging = create_app({"APP_ENV": "testing", "SECRET_KEY": TEST_SECRET, "RATELIMIT_ENABLED": False,
                              "SQLALCHEMY_DATABASE_URI": url})  # fmt: skip
        with staging.app_context():
            seed_stage()
            db.session.remove()
        with AppServer(database_url=url, env=server_env(options.production_limits), workers=options.workers) as server:
            schema = schemathesis.openapi.from_url(server.url + "/api/openapi.json",
                                                   config=make_config(options.max_examples, options.seed))  # fmt: skip
            schema = schema.include(path_regex=options.only_path or "^/api/")
            print(f"Fuzzing {server.url} (gunicorn, production settings, PostgreSQL, {options.workers} workers): "
                  f"coverage phase + {options.max_examples} fuzzed requests per operation, callers in turn; rate "
                  f"limits {'as in production' if options.production_limits else 'from the environment raised'}",
                  flush=True)  # fmt: skip
            operations = 0
            run_case = case_runner(staging, server, tally)
            for result in get_all_tests(schema=schema, test_func=run_case, settings=None, given_kwargs=None):
                if not isinstance(result, Ok):
                    tally.errors.append(f"schema: {result.err()}")
                    continue
                operation, test = result.ok()
                operations += 1
                try:
                    test()
                except Exception as error:  # generation itself failed (an unsatisfiable schema, …)
                    tally.errors.append(f"{operation.label}: {type(error).__name__}: {str(error)[:300]}")
                statuses = tally.statuses[operation.label]
                failed = sum(n for (label, _), n in tally.failure_counts.items() if label == operation.label)
                print(f"  {operation.label:55} {sum(statuses.values()):5} cases  "
                      f"{' '.join(f'{s}:{n}' for s, n in sorted(statuses.items(), key=str))}"
                      f"{f'  FAILURES {failed}' if failed else ''}", flush=True)  # fmt: skip
            tracebacks = server.log().count("Traceback (most recent call last)")
            log_tail = server.log()[-4000:] if tracebacks else ""
        staging_engine_dispose(staging)
    return summarise(tally, operations, tracebacks, log_tail, time.monotonic() - started)


def staging_engine_dispose(staging) -> None:
    with staging.app_context():
        db.engine.dispose()  # before the throwaway database is dropped


def summarise(tally: Tally, operations: int, tracebacks: int, log_tail: str, seconds: float) -> int:
    server_errors = tally.count(lambda status: isinstance(status, int) and status >= 500)
    limited = tally.count(lambda status: status == 429)
    transport = tally.count(lambda status: status == "transport error")
    print(f"\n{operations} operations, {tally.cases} cases in {seconds:.0f} s: "
          f"{tally.count(lambda s: isinstance(s, int) and s < 300)} 2xx, "
          f"{tally.count(lambda s: isinstance(s, int) and 400 <= s < 500)} 4xx ({limited} of them 429), "
          f"{server_errors} 5xx, {transport} transport errors; "
          f"{len(tally.failures)} distinct failures ({sum(tally.failure_counts.values())} failing cases); "
          f"{tracebacks} tracebacks in the server log")  # fmt: skip
    if limited:
        by_operation = {label: counter[429] for label, counter in tally.statuses.items() if counter[429]}
        print("429 (rate limited, documented): " + ", ".join(f"{label} {n}" for label, n in by_operation.items()))
    for (label, title), details in sorted(tally.failures.items()):
        print(f"\nFAILURE {label} — {title}, {tally.failure_counts[(label, title)]} cases, first as {details['role']}:"
              f"\n  {details['detail']}\n  {shorten(details['curl'])}")  # fmt: skip
    for error in tally.errors:
        print(f"\nERROR {error}")
    if log_tail:
        print("\nThe server log's end:\n" + re.sub(r"(?m)^", "  ", log_tail))
    ok = not (server_errors or transport or tally.failures or tally.errors)
    print("\nPASS: no server errors, every answer conforms" if ok else "\nFAIL")
    return 0 if ok else 1


def shorten(text: str, limit: int = 700) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=50, help="fuzzed requests per operation (default 50)")
    parser.add_argument("--seed", type=int, default=None, help="generation seed (default the in-process test's)")
    parser.add_argument("--only-path", default=None, help="a regex of paths to fuzz (default every /api/ path)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--production-limits", action="store_true", help="keep the production rate limits")
    options = parser.parse_args(argv)
    if options.seed is None:
        from tests.api.fuzzing import SEED

        options.seed = SEED
    return run(options)


if __name__ == "__main__":
    sys.exit(main())
