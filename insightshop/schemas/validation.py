"""Validate request data against JSON Schema (Draft 2020-12, formats checked) into one clear error."""

from __future__ import annotations

import json
import math
import re
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from ..services.errors import Invalid

ECHO_LIMIT = 80  # characters of a caller's value repeated in an error message
DB_INT_MAX = 2**31 - 1  # the largest value an INTEGER column holds (PostgreSQL, and ids everywhere)
MAX_JSON_DEPTH = 32  # no request needs deeper nesting; deeper documents are refused before any rule sees them
MESSAGE_LIMIT = 300
MAX_DETAILS = 20


class NonFiniteNumber(ValueError):
    """NaN, Infinity or an overflowing number in a JSON document."""


class TooDeep(ValueError):
    """A JSON document nested deeper than MAX_JSON_DEPTH."""


def _refuse_constant(name: str):
    raise NonFiniteNumber(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise NonFiniteNumber(f"{shorten(text)} is out of range")
    return value


def parse_strict_json(data: bytes | str) -> Any:
    """json.loads without Python's extensions: NaN, Infinity and -Infinity literals (and numbers that
    overflow to infinity) raise NonFiniteNumber instead of becoming floats no rule can compare; documents nested
    deeper than MAX_JSON_DEPTH raise TooDeep (the parser's own recursion limit would otherwise escape as an error)."""
    try:
        document = json.loads(data, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise TooDeep(f"JSON nested deeper than {MAX_JSON_DEPTH} levels") from None
    if _depth_exceeds(document, MAX_JSON_DEPTH):
        raise TooDeep(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    return document


def _depth_exceeds(document: Any, limit: int) -> bool:
    level, current = 0, [document]
    while current:
        level += 1
        if level > limit:
            return True
        children = []
        for value in current:
            if isinstance(value, dict):
                children.extend(v for v in value.values() if isinstance(v, dict | list))
            elif isinstance(value, list):
                children.extend(v for v in value if isinstance(v, dict | list))
        current = children
    return False


def with_column_limits(schema: Any) -> Any:
    """A copy of a JSON Schema in which every integer without a maximum gets DB_INT_MAX, so an id or count a
    client sends can never overflow the database column it is looked up in."""
    if isinstance(schema, list):
        return [with_column_limits(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: with_column_limits(value) for key, value in schema.items()}
    kinds = schema.get("type")
    is_integer = kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds)
    if is_integer and "maximum" not in schema and "exclusiveMaximum" not in schema:
        bounded["maximum"] = DB_INT_MAX
    if is_integer and "minimum" not in schema and "exclusiveMinimum" not in schema:
        bounded["minimum"] = -DB_INT_MAX - 1
    return bounded


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


# C0 controls except tab, newline and carriage return, DEL, and the C1 controls: never part of what a person types,
# and PostgreSQL cannot store a NUL in text at all.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def find_control_character(value: Any, path: str = "") -> str | None:
    """The path of the first string (or key) with a control character inside a decoded document, else None."""
    if isinstance(value, str):
        return (path or "(value)") if CONTROL_CHARACTERS.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and CONTROL_CHARACTERS.search(key):
                return where
            found = find_control_character(item, where)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = find_control_character(item, f"{path}.{index}" if path else str(index))
            if found:
                return found
    return None


# ASCII digits only: str.isdigit() also accepts characters such as "²" that int() refuses, and int() refuses more than
# 4300 digits; no number the shop stores needs more than a few dozen.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,50}")


def whole_number(text: str | None) -> int | None:
    """The integer a text of ASCII digits spells (an optional sign first, spaces around ignored), else None."""
    text = (text or "").strip()
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def row_id(text: str | None) -> int | None:
    """A text read as a row id (a search box's "1234", a provider's metadata): 1…DB_INT_MAX, else None."""
    number = whole_number(text)
    return number if number is not None and 1 <= number <= DB_INT_MAX else None


def query_int(args, name: str, default: int | None = None, *, low: int = 1, high: int = DB_INT_MAX) -> int | None:
    """A whole-number query parameter from low to high (the default when absent or empty), else Invalid naming it."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    number = whole_number(raw)
    if number is None or not low <= number <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}",
                      details=[{"field": name, "message": f"{low}–{high}"}])  # fmt: skip
    return number


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
    schema = with_column_limits(json.loads(schema_json))
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
