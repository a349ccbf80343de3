"""The tool catalog over HTTP: GET /api/tools (what the caller may use), POST /api/tools/<name> (run one)."""

from __future__ import annotations

from flask import request

from ...mcp.tools_registry import get_tool_definition, get_tools_for_llm
from ...services.errors import ErrorCode
from ...utils.agent_executor import run_tool
from ...web.auth import current_actor, current_api_token
from ...web.errors import error_response
from . import api, json_body

STATUS_FOR = {"unknown_tool": 404, "invalid_arguments": 400, "forbidden": 403, "unauthorized": 401, "not_found": 404,
              "conflict": 409, "out_of_stock": 409, "already_paid": 409, "payment_declined": 409, "invalid_transition": 409,
              "order_expired": 409, "idempotency_key_reused": 422, "internal_error": 500, "unavailable": 503,
              "rate_limited": 429}  # fmt: skip


def role_of(actor) -> str:
    if actor.is_admin:
        return "admin"
    return "user" if actor.has_owner else "anonymous"


@api.get("/tools")
def list_tools():
    role = role_of(current_actor())
    tools = []
    for tool in get_tools_for_llm(role):
        definition = get_tool_definition(tool["name"])
        tools.append({**tool, "output_schema": definition["output_schema"], "annotations": definition["annotations"],
                      "confirm": definition["confirm"], "permission": definition["permission"]})  # fmt: skip
    return {"role": role, "tools": tools}


@api.post("/tools/<name>")
def call_tool(name: str):
    arguments = json_body() if request.get_data() else {}
    result = run_tool(name, arguments, current_actor(), api_token=current_api_token())
    if result["ok"]:
        return {"ok": True, "data": result["data"]}
    error = result["error"]
    status = STATUS_FOR.get(error["code"], 400)
    code = ErrorCode.VALIDATION_ERROR.value if error["code"] == "invalid_arguments" else error["code"]
    return error_response(status, code, error["message"], error.get("details"))
