"""bench/http.py's pieces work: gunicorn for the shop and hello-world, wrk with its Lua report, the table."""

import re
import subprocess
import sys

import pytest

from tests.live.servers import ROOT

pytestmark = pytest.mark.live


def test_a_quick_run_prints_rows_with_figures_and_no_errors():
    done = subprocess.run(
        [sys.executable, "bench/http.py", "--quick", "--duration", "1", "--warmup", "0", "--db", "sqlite",
         "--only", "home,api_search", "--cache", "off", "--workers", "1", "--threads", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    rows = {name: line for name in ("hello-world", "home /", "JSON search") for line in done.stdout.splitlines()
            if line.startswith("| sqlite | " + name)}  # fmt: skip
    assert len(rows) == 3, done.stdout
    for line in rows.values():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert float(cells[3].replace(",", "")) > 0  # req/s
        assert cells[7] == "0"  # errors
    assert re.search(r"home /\s+cache off[^|\n]*?\s+(PASS|FAIL)", done.stdout)
