"""Prometheus metrics at /metrics: requests, tool calls and chat turns counted; access control; multiprocess mode."""

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from tests.factories import make_product

ROOT = Path(__file__).resolve().parents[2]


def _value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_requests_are_counted_by_route_rule_and_status(client):
    product = make_product("Oxford Shirt")
    labels = {"method": "GET", "endpoint": "/products/<int:product_id>"}
    before = _value("insightshop_http_requests_total", **labels, status="200")
    seen = _value("insightshop_http_request_duration_seconds_count", **labels)
    missing = _value("insightshop_http_requests_total", method="GET", endpoint="<unmatched>", status="404")

    client.get(f"/products/{product.id}")
    client.get(f"/products/{product.id}?color=white")
    client.get("/no/such/page/12345")

    assert _value("insightshop_http_requests_total", **labels, status="200") == before + 2
    assert _value("insightshop_http_request_duration_seconds_count", **labels) == seen + 2
    assert _value("insightshop_http_requests_total", method="GET", endpoint="<unmatched>", status="404") == missing + 1


def test_tool_calls_are_counted_by_tool_and_outcome(client):
    make_product("Oxford Shirt")
    ok = _value("insightshop_tool_calls_total", tool="search_products", outcome="ok")
    refused = _value("insightshop_tool_calls_total", tool="<unknown>", outcome="refused")

    client.post("/api/tools/search_products", json={"query": "shirt"})
    client.post("/api/tools/made_up_tool_name", json={})

    assert _value("insightshop_tool_calls_total", tool="search_products", outcome="ok") == ok + 1
    assert _value("insightshop_tool_calls_total", tool="<unknown>", outcome="refused") == refused + 1
    assert _value("insightshop_tool_calls_total", tool="made_up_tool_name", outcome="refused") == 0


def test_chat_turns_are_counted_by_engine(client):
    make_product("Oxford Shirt")
    before = _value("insightshop_chat_turns_total", engine="offline")

    response = client.post("/api/ai/chat", json={"message": "show me white shirts"})

    assert response.status_code == 200
    assert _value("insightshop_chat_turns_total", engine="offline") == before + 1


def test_metrics_page_is_prometheus_text_for_loopback_callers(client):
    client.get("/healthz")

    response = client.get("/metrics")

    assert response.status_code == 200
    assert response.content_type.startswith("text/plain")
    assert response.headers["Cache-Control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(response.get_data(as_text=True))}
    assert {"insightshop_http_requests", "insightshop_tool_calls", "insightshop_chat_turns"} <= names


def test_metrics_are_hidden_from_other_addresses_and_proxied_requests(client):
    outside = client.get("/metrics", environ_base={"REMOTE_ADDR": "203.0.113.7"})
    proxied = client.get("/metrics", headers={"X-Forwarded-For": "203.0.113.7"})

    assert (outside.status_code, proxied.status_code) == (404, 404)


def test_metrics_token_opens_them_to_other_addresses(app, client):
    app.config["METRICS_TOKEN"] = "scrape-secret"
    outside = {"REMOTE_ADDR": "203.0.113.7"}

    wrong = client.get("/metrics", environ_base=outside, headers={"Authorization": "Bearer guess"})
    right = client.get("/metrics", environ_base=outside, headers={"Authorization": "Bearer scrape-secret"})

    assert (wrong.status_code, right.status_code) == (404, 200)


WORKER = """
from insightshop.observability import metrics
metrics.count_tool_call("search_products", "ok")
metrics.count_chat_turn("offline")
metrics.observe_request("GET", "/catalog", 200, 0.01)
"""


def _worker(directory: Path) -> None:
    """One gunicorn worker's worth of counts, in a process of its own (as prometheus_client's multiprocess mode
    needs PROMETHEUS_MULTIPROC_DIR before it is imported)."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    finished = subprocess.run([sys.executable, "-c", WORKER], env=env, cwd=ROOT, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr


def test_multiprocess_mode_adds_up_every_workers_counts(client, tmp_path, monkeypatch):
    directory = tmp_path / "prometheus"  # its own directory: every *.db file in it is read as metrics
    directory.mkdir()
    _worker(directory)
    _worker(directory)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))

    families = {f.name: f for f in text_string_to_metric_families(client.get("/metrics").get_data(as_text=True))}

    tools = {s.labels["tool"]: s.value for s in families["insightshop_tool_calls"].samples if s.name.endswith("_total")}
    turns = [s.value for s in families["insightshop_chat_turns"].samples if s.name.endswith("_total")]
    latency = families["insightshop_http_request_duration_seconds"].samples
    assert tools == {"search_products": 2.0}
    assert turns == [2.0]
    assert [s.value for s in latency if s.name.endswith("_count") and s.labels["endpoint"] == "/catalog"] == [2.0]


def test_mark_process_dead_is_callable_from_gunicorn_in_both_modes(tmp_path, monkeypatch):
    from insightshop.observability.metrics import mark_process_dead

    mark_process_dead(12345)  # no multiprocess directory: nothing to do
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    (tmp_path / "gauge_livesum_12345.db").write_bytes(b"")

    mark_process_dead(12345)

    assert not (tmp_path / "gauge_livesum_12345.db").exists()
