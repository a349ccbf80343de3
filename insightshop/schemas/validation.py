"""Validate request data against JSON Schema (Draft 2020-12, formats checked) into one clear error."""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from ..services.errors import Invalid

ECHO_LIMIT = 80  # characters of a caller's value repeated in an error message
MESSAGE_LIMIT = 300
MAX_DETAILS = 20


class NonFiniteNumber(ValueError):
    """NaN, Infinity or an overflowing number in a JSON document."""


def _refuse_constant(name: str):
    raise NonFiniteNumber(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise NonFiniteNumber(f"{shorten(text)} is out of range")
    return value


def parse_strict_json(data: bytes | str) -> Any:
    """json.loads without Python's extensions: NaN, Infinity and -Infinity literals (and numbers that
    overflow to infinity) raise NonFiniteNumber instead of becoming floats no rule can compare."""
    return json.loads(data, parse_constant=_refuse_constant, parse_float=_finite_float)


def find_non_finite(value: Any, path: str = "") -> str | None:
    """The path of the first NaN/Infinity float inside a decoded document (MCP, engines), else None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path or "(value)"
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = find_non_finite(item, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """A caller's value cut to `limit` characters with an ellipsis, so errors never echo megabytes."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _echo(error: ValidationError) -> str:
    """jsonschema's message with the offending value's repr shortened."""
    message = error.message
    try:
        shown = repr(error.instance)
    except Exception:
        return shorten(message, MESSAGE_LIMIT)
    if len(shown) > ECHO_LIMIT:
        message = message.replace(shown, shorten(shown))
    return shorten(message, MESSAGE_LIMIT)


@cache
def _validator_for(schema_json: str) -> Draft202012Validator:
    schema = json.loads(schema_json)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def compile_schema(schema: dict) -> Draft202012Validator:
    """A checked, compiled validator for a schema (cached by the schema's content)."""
    return _validator_for(json.dumps(schema, sort_keys=True))


def describe_error(error: ValidationError) -> dict[str, str]:
    """One validation failure as {field, message}, naming the field and the rule it broke (values shortened)."""
    path = shorten(".".join(str(part) for part in error.absolute_path))
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        path = ".".join(filter(None, [path, missing]))
        return {"field": path, "message": f"{path} is required"}
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        field = shorten(".".join(filter(None, [path, str(unknown[0]) if unknown else ""])))
        return {"field": field, "message": f"{field} is not an allowed field"}
    field = path or "(body)"
    return {"field": field, "message": f"{field}: {_echo(error)}"}


def validate(instance: Any, schema: dict, *, what: str = "request") -> Any:
    """Return the instance unchanged when valid, else raise Invalid listing every problem."""
    non_finite = find_non_finite(instance)
    if non_finite:
        message = f"{shorten(non_finite)} must be a finite number, not NaN or Infinity"
        raise Invalid(f"Invalid {what}: {message}", details=[{"field": shorten(non_finite), "message": message}])
    errors = sorted(compile_schema(schema).iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        details = [describe_error(error) for error in errors[:MAX_DETAILS]]
        if len(errors) > MAX_DETAILS:
            details.append({"field": "(body)", "message": f"and {len(errors) - MAX_DETAILS} more problems"})
        raise Invalid(f"Invalid {what}: {details[0]['message']}", details=details)
    return instance
