"""Log records as JSON lines on stderr, each with the request it belongs to."""

import json
import logging

import pytest

from insightshop.observability.logging import JsonFormatter, RequestContextFilter
from tests.conftest import _app_for


@pytest.fixture
def json_app(database_url):
    app = _app_for(database_url, LOG_FORMAT="json")
    yield app
    logging.getLogger().handlers[:] = [h for h in logging.getLogger().handlers if not getattr(h, "_insightshop", 0)]


def _json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_each_request_writes_one_json_access_line(json_app, capsys):
    json_app.test_client().get("/catalog?q=secret-query", headers={"X-Request-ID": "req-log-1"})

    lines = [line for line in _json_lines(capsys.readouterr().err) if line["logger"] == "insightshop.access"]
    assert len(lines) == 1
    line = lines[0]
    assert line["level"] == "INFO" and line["message"] == "GET /catalog 200"
    assert (line["request_id"], line["method"], line["path"], line["status"]) == ("req-log-1", "GET", "/catalog", 200)
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["timestamp"].endswith("+00:00")
    assert "secret-query" not in json.dumps(line)  # query strings are never logged


def test_a_log_record_inside_a_request_carries_the_request_and_the_exception(json_app, capsys):
    with json_app.test_request_context("/cart", method="POST"):
        from insightshop.observability.request_context import bind_request_id, reset_request_id

        token = bind_request_id("req-log-2")
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("insightshop.test").exception("Could not %s", "do it")
        finally:
            reset_request_id(token)

    [line] = [line for line in _json_lines(capsys.readouterr().err) if line["logger"] == "insightshop.test"]
    assert line["message"] == "Could not do it" and line["level"] == "ERROR"
    assert (line["request_id"], line["method"], line["path"]) == ("req-log-2", "POST", "/cart")
    assert "ValueError: boom" in line["exc_info"] and "Traceback" in line["exc_info"]


def test_a_record_outside_a_request_has_null_request_fields():
    record = logging.LogRecord("insightshop.worker", logging.WARNING, __file__, 1, "queue %s empty", ("rq",), None)
    RequestContextFilter().filter(record)

    line = json.loads(JsonFormatter().format(record))

    assert line["message"] == "queue rq empty" and line["level"] == "WARNING" and line["logger"] == "insightshop.worker"
    assert (line["request_id"], line["method"], line["path"]) == (None, None, None)


def test_tokens_in_paths_are_not_logged(json_app, capsys):
    json_app.test_client().get("/reset-password/very-secret-reset-token")

    err = capsys.readouterr().err
    assert "very-secret-reset-token" not in err
    assert any(line.get("path") == "/reset-password/[redacted]" for line in _json_lines(err))


def test_production_defaults_to_json_and_development_to_text(monkeypatch, tmp_path):
    from insightshop.config import load_config

    monkeypatch.delenv("LOG_FORMAT", raising=False)
    production = {"APP_ENV": "production", "SECRET_KEY": "k" * 40, "PUBLIC_BASE_URL": "https://shop.example.com",
                  "ALLOW_OFFLINE_PAYMENTS": True}  # fmt: skip

    assert load_config(str(tmp_path), production)["LOG_FORMAT"] == "json"
    assert load_config(str(tmp_path), {"APP_ENV": "development"})["LOG_FORMAT"] == "text"
    assert load_config(str(tmp_path), {"APP_ENV": "testing"})["LOG_FORMAT"] == "text"


def test_text_lines_show_the_request_id_when_there_is_one(database_url, capsys):
    app = _app_for(database_url, LOG_FORMAT="text")

    app.test_client().get("/catalog", headers={"X-Request-ID": "req-text-1"})

    assert " INFO insightshop.access [req-text-1] GET /catalog 200" in capsys.readouterr().err
