"""The tool registry (seed 001 API): definitions loaded and checked once, schemas compiled once.

get_tools_for_llm(role) — the tools a role may see, in Anthropic's tool format
get_tool_definition(name) — one tool's full definition
validate_tool_call(tool_name, arguments, is_admin) — (valid, error_message): exists → schema → permission
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError

from ..schemas.validation import (
    MAX_DETAILS,
    describe_error,
    find_control_character,
    find_non_finite,
    shorten,
    with_column_limits,
)

TOOL_FILES = (
    Path(__file__).with_name("insight_shop_tools.json"),
    Path(__file__).with_name("insight_shop_assistant_tools.json"),
    Path(__file__).with_name("insight_shop_receipt_tools.json"),
    Path(__file__).with_name("insight_shop_citation_tools.json"),
    Path(__file__).with_name("insight_shop_admin_tools.json"),
    Path(__file__).with_name("insight_shop_service_tools.json"),
)
ROLES = ("anonymous", "user", "admin")

DEFINITION_SCHEMA = {
    "type": "object",
    "required": [
        "name",
        "description",
        "permission",
        "public",
        "confirm",
        "annotations",
        "input_schema",
        "output_schema",
    ],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]{1,63}$"},
        "description": {"type": "string", "minLength": 10},
        "permission": {"enum": ["user", "admin"]},
        "public": {"type": "boolean"},
        "confirm": {"type": "boolean"},
        "annotations": {
            "type": "object",
            "required": ["readOnlyHint", "destructiveHint", "idempotentHint"],
            "properties": {
                k: {"type": "boolean"} for k in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
            }
            | {"title": {"type": "string"}},
            "additionalProperties": False,
        },
        "input_schema": {
            "type": "object",
            "required": ["type", "additionalProperties"],
            "properties": {"type": {"const": "object"}, "additionalProperties": {"const": False}},
        },  # fmt: skip
        "output_schema": {"type": "object", "required": ["type"]},
    },
}
FILE_SCHEMA = {
    "type": "object",
    "required": ["tools"],
    "properties": {"tools": {"type": "array", "items": DEFINITION_SCHEMA}},
}


class ToolDefinitionError(RuntimeError):
    """A tool file is broken; the app refuses to start with it."""


class Registry:
    """Loaded, checked and compiled tool definitions."""

    def __init__(self, files=TOOL_FILES):
        self.definitions: dict[str, dict] = {}
        for path in files:
            for definition in _load(path):
                if definition["name"] in self.definitions:
                    raise ToolDefinitionError(f"{path}: tool {definition['name']} is defined twice")
                self.definitions[definition["name"]] = definition
        self.validators = {
            name: Draft202012Validator(with_column_limits(d["input_schema"]), format_checker=FormatChecker())
            for name, d in self.definitions.items()
        }
        self._llm_tools = {
            role: [self._llm_format(d) for d in self.definitions.values() if _visible(d, role)] for role in ROLES
        }

    @staticmethod
    def _llm_format(definition: dict) -> dict:
        return {
            "name": definition["name"],
            "description": definition["description"],
            "input_schema": definition["input_schema"],
        }


def _load(path: Path) -> list[dict]:
    try:
        document = json.loads(path.read_text())
        Draft202012Validator(FILE_SCHEMA).validate(document)
        for definition in document["tools"]:
            Draft202012Validator.check_schema(definition["input_schema"])
            Draft202012Validator.check_schema(definition["output_schema"])
    except (OSError, ValueError, SchemaError) as error:
        raise ToolDefinitionError(f"{path.name} is not a valid tool file: {error}") from error
    except Exception as error:  # jsonschema.ValidationError from the file schema
        raise ToolDefinitionError(
            f"{path.name} is not a valid tool file: {getattr(error, 'message', error)}"
        ) from error
    return document["tools"]


def _visible(definition: dict, role: str) -> bool:
    if role == "admin":
        return True
    if role == "user":
        return definition["permission"] == "user"
    return definition["permission"] == "user" and definition["public"]


@lru_cache(maxsize=1)
def registry() -> Registry:
    return Registry()


def get_tools_for_llm(role: str) -> list[dict]:
    """The tools a role may use, in Anthropic's tool format: a user never sees admin tools."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}")
    return copy.deepcopy(registry()._llm_tools[role])


def get_tool_definition(name: str) -> dict | None:
    """A tool's whole definition (copy), or None."""
    definition = registry().definitions.get(name)
    return copy.deepcopy(definition) if definition else None


def tool_names() -> list[str]:
    return list(registry().definitions)


def validate_tool_call(tool_name: str, arguments, is_admin: bool) -> tuple[bool, str | None]:
    """Check a call before anything runs: the tool exists, the arguments match its strict schema
    (unknown properties rejected), and the caller may use it."""
    result = check_tool_call(tool_name, arguments, is_admin)
    return (True, None) if result is None else (False, result[1])


def check_tool_call(tool_name: str, arguments, is_admin: bool) -> tuple[str, str] | None:
    """None when the call may run, else (error code, message)."""
    reg = registry()
    definition = reg.definitions.get(tool_name) if isinstance(tool_name, str) else None
    if definition is None:
        return "unknown_tool", f"Unknown tool: {str(tool_name)[:80]}"
    validator = reg.validators[tool_name]
    if not isinstance(arguments, dict):
        return "invalid_arguments", "Invalid input: the arguments must be a JSON object"
    # NaN passes every minimum/maximum (all comparisons are false): refuse it before the schema.
    non_finite = find_non_finite(arguments)
    if non_finite:
        return "invalid_arguments", f"Invalid input: {shorten(non_finite)} must be a finite number, not NaN or Infinity"
    control = find_control_character(arguments)
    if control:
        return (
            "invalid_arguments",
            f"Invalid input: {shorten(control)} contains a control character (such as a NUL byte)",
        )
    if not validator.is_valid(arguments):
        messages = sorted({describe_error(error)["message"] for error in validator.iter_errors(arguments)})
        more = f"; and {len(messages) - MAX_DETAILS} more problems" if len(messages) > MAX_DETAILS else ""
        return "invalid_arguments", "Invalid input: " + "; ".join(messages[:MAX_DETAILS]) + more
    if definition["permission"] == "admin" and not is_admin:
        return "forbidden", f"Tool not allowed: {tool_name} is for admins only"
    return None
