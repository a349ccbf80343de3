"""Every JSON answer the test client gets from /api is checked against the OpenAPI document.

The test app's client class validates each response to an /api/ path against the operation the request matched:
the status must be documented for that operation, the body must be JSON and match the schema documented for that
status (Draft 2020-12 with the document's components, formats checked). Answers that match no operation (an
unknown path, a method the path does not have) must still be the error envelope. So every API test is also a
conformance check, and a failure names the operation and the schema path that failed.
"""

from __future__ import annotations

import json
from functools import cache

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, FormatChecker
from werkzeug.exceptions import HTTPException

from insightshop.mcp.tools_registry import get_tool_definition, tool_names
from insightshop.schemas.openapi import build_openapi

SKIPPED_METHODS = {"HEAD", "OPTIONS"}
ERROR_POINTER = "#/components/schemas/Error"


class ResponseDoesNotConform(AssertionError):
    """An /api answer the OpenAPI document does not describe."""


@cache
def _document() -> dict:
    return build_openapi()


@cache
def _validator(pointer: str) -> Draft202012Validator:
    """A validator for the schema at a JSON pointer into the document ("#/paths/…"), resolving its components."""
    document = _document()
    schema = {"$ref": pointer, "paths": document["paths"], "components": document["components"]}
    return Draft202012Validator(schema, format_checker=FormatChecker())


@cache
def _tool_validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(get_tool_definition(name)["output_schema"], format_checker=FormatChecker())


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def openapi_path(rule: str) -> str:
    """/api/cart/<int:item_id> → /api/cart/{item_id}"""
    return rule.replace("<int:", "{").replace("<", "{").replace(">", "}")


def _require(validator, body, title: str, locate) -> None:
    """Raise with the first problems (where in the body, where in the schema) when the body does not validate."""
    errors = list(validator.iter_errors(body))
    if errors:
        raise ResponseDoesNotConform(f"{title}:\n{_describe(errors, body, locate)}")


def _describe(errors, body, locate) -> str:
    lines = []
    for error in sorted(errors, key=lambda e: list(map(str, e.absolute_path)))[:5]:
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        lines.append(f"  at {where}: {error.message[:300]}\n    schema path: {locate(error)}")
    shown = json.dumps(body)[:600]
    return "\n".join(lines) + f"\n  body: {shown}"


def _resolve(pointer: str):
    node = _document()
    for step in pointer.removeprefix("#/").split("/"):
        node = node[int(step)] if isinstance(node, list) else node[step.replace("~1", "/").replace("~0", "~")]
    return node


def _schema_location(error, pointer: str) -> str:
    """Where in the document the failing rule is, through the $refs: #/components/schemas/Cart/properties/…"""
    location, node = pointer, _resolve(pointer)
    for part in error.absolute_schema_path:
        while isinstance(node, dict) and "$ref" in node and part not in node:
            location = node["$ref"]
            node = _resolve(location)
        node = node[part]
        location += f"/{_escape(str(part))}"
    return location


def check_response(app, method: str, path: str, response) -> None:
    """Raise ResponseDoesNotConform when an /api answer is not what the document says."""
    if not path.startswith("/api/") or method in SKIPPED_METHODS:
        return
    label = f"{method} {path}"
    if response.mimetype != "application/json":
        if _documents_file(app, method, path, response):
            return
        raise ResponseDoesNotConform(f"{label} answered {response.status_code} with {response.mimetype}, not JSON")
    body = response.get_json(silent=True)
    try:
        rule, _ = app.url_map.bind("localhost").match(path, method=method, return_rule=True)
    except HTTPException:  # no such operation: the answer must still be the error envelope
        _require(_validator(ERROR_POINTER), body, f"{label} (no operation) answered a body that is not the error envelope",
                 lambda e: _schema_location(e, ERROR_POINTER))  # fmt: skip
        return
    template = openapi_path(rule.rule)
    operation = _document()["paths"].get(template, {}).get(method.lower())
    if operation is None:
        raise ResponseDoesNotConform(f"{label}: {method} {template} is not in the OpenAPI document")
    name = f"{method} {template} ({operation['operationId']})"
    status = str(response.status_code)
    if status not in operation["responses"]:
        raise ResponseDoesNotConform(
            f"{name} answered {status}, which is not documented (documented: {', '.join(operation['responses'])}); "
            f"body: {json.dumps(body)[:600]}"
        )
    pointer = f"#/paths/{_escape(template)}/{method.lower()}/responses/{status}/content/application~1json/schema"
    _require(_validator(pointer), body, f"{name} answered {status} with a body that does not match its schema",
             lambda e: _schema_location(e, pointer))  # fmt: skip
    _check_tool_data(name, path, status, body)


def _documents_file(app, method: str, path: str, response) -> bool:
    """A file download (a receipt's own file) documented with that content type for that status."""
    try:
        rule, _ = app.url_map.bind("localhost").match(path, method=method, return_rule=True)
    except HTTPException:
        return False
    operation = _document()["paths"].get(openapi_path(rule.rule), {}).get(method.lower()) or {}
    content = operation.get("responses", {}).get(str(response.status_code), {}).get("content", {})
    return response.mimetype in content and content[response.mimetype]["schema"].get("format") == "binary"


def _check_tool_data(name: str, path: str, status: str, body) -> None:
    """POST /api/tools/<name>: data matches that tool's own output_schema (the document cannot say which)."""
    tool = path.removeprefix("/api/tools/")
    if status != "200" or not path.startswith("/api/tools/") or tool not in tool_names():
        return
    _require(_tool_validator(tool), body["data"], f"{name} {tool}: data does not match the tool's output_schema",
             lambda e: f"{tool} output_schema/" + "/".join(map(str, e.absolute_schema_path)))  # fmt: skip


class ConformingClient(FlaskClient):
    """The test client: every /api answer is checked against the OpenAPI document (see the module docstring)."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        request = response.request
        check_response(self.application, request.method, request.path, response)
        return response
