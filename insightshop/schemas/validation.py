"""Validate request data against JSON Schema (Draft 2020-12, formats checked) into one clear error."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from ..services.errors import Invalid


@cache
def _validator_for(schema_json: str) -> Draft202012Validator:
    import json

    schema = json.loads(schema_json)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def compile_schema(schema: dict) -> Draft202012Validator:
    """A checked, compiled validator for a schema (cached by the schema's content)."""
    import json

    return _validator_for(json.dumps(schema, sort_keys=True))


def describe_error(error: ValidationError) -> dict[str, str]:
    """One validation failure as {field, message}, naming the field and the rule it broke."""
    path = ".".join(str(part) for part in error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        path = ".".join(filter(None, [path, missing]))
        return {"field": path, "message": f"{path} is required"}
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        field = ".".join(filter(None, [path, unknown[0] if unknown else ""]))
        return {"field": field, "message": f"{field} is not an allowed field"}
    field = path or "(body)"
    return {"field": field, "message": f"{field}: {error.message}"}


def validate(instance: Any, schema: dict, *, what: str = "request") -> Any:
    """Return the instance unchanged when valid, else raise Invalid listing every problem."""
    errors = sorted(compile_schema(schema).iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        details = [describe_error(error) for error in errors]
        raise Invalid(f"Invalid {what}: {details[0]['message']}", details=details)
    return instance
