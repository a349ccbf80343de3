"""The Claude engine: the official anthropic SDK with tool use. Every tool call still goes through the guard
(the chat service's execute → run_tool); tool results go back to the model as data, never as instructions."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import anthropic

from ..mcp.tools_registry import get_tools_for_llm
from ..services.vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, SIZES
from .engines import EngineUnavailable, Plan

MAX_ROUNDS = 6
MAX_TOKENS = 1024
MCP_BETA = "mcp-client-2025-04-04"


def system_prompt(role: str) -> str:
    from ..routes.ai_agent import AGENT_SYSTEM_PROMPT

    return (
        f"{AGENT_SYSTEM_PROMPT}\n"
        f"The caller's role is {role}; never act beyond it — the shop refuses anything else anyway.\n"
        f"Now: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M')} UTC.\n"
        f"Shop vocabulary — categories: {', '.join(CATEGORIES)}; clothing types: {', '.join(CLOTHING_TYPES)}; "
        f"colours: {', '.join(COLORS)}; sizes: {', '.join(SIZES)}.\n"
        "Never ask for or repeat passwords: to log in, tell the shopper to use the login form. "
        "Consequential actions are confirmed by the shopper in the app; say so when a tool answers needs_confirmation."
    )


class ClaudeEngine:
    name = "claude"

    def __init__(self, config: dict):
        self.model = config["ANTHROPIC_MODEL"]
        self.client = anthropic.Anthropic(api_key=config["ANTHROPIC_API_KEY"], http_client=config.get("ANTHROPIC_HTTP_CLIENT"),
                                          max_retries=1, timeout=30.0)  # fmt: skip
        self.mcp_servers = json.loads(config["ANTHROPIC_MCP_SERVERS"]) if config.get("ANTHROPIC_MCP_SERVERS") else None

    def respond(
        self, message: str, context: dict, *, is_admin: bool, history: list[dict], execute, observe=None
    ) -> Plan:
        role = "admin" if is_admin else "user"
        tools = get_tools_for_llm(role)
        if tools:
            tools[-1] = {**tools[-1], "cache_control": {"type": "ephemeral"}}  # caches the whole tool list
        system = [{"type": "text", "text": system_prompt(role), "cache_control": {"type": "ephemeral"}}]
        messages = [{"role": m["role"], "content": m["content"]} for m in history if m["content"]][-23:]
        messages.append({"role": "user", "content": message})
        messages = _alternate(messages)
        texts: list[str] = []
        for _ in range(MAX_ROUNDS):
            response = self._create(system, tools, messages)
            texts = [block.text for block in response.content if block.type == "text"]
            uses = [block for block in response.content if block.type == "tool_use"]
            for entry in remote_mcp_calls(response.content):
                if observe is not None:
                    observe(entry)
            if response.stop_reason != "tool_use" or not uses:
                break
            messages.append(
                {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in response.content]}
            )
            messages.append({"role": "user", "content": [self._result(use, execute) for use in uses]})
        return Plan(reply=" ".join(t.strip() for t in texts if t.strip()) or None, context=context)

    def _create(self, system, tools, messages):
        kwargs = {"model": self.model, "max_tokens": MAX_TOKENS, "system": system, "tools": tools, "messages": messages}
        try:
            if self.mcp_servers:
                return self.client.beta.messages.create(**kwargs, mcp_servers=self.mcp_servers, betas=[MCP_BETA])
            return self.client.messages.create(**kwargs)
        except anthropic.AuthenticationError:
            raise EngineUnavailable("the API key was refused") from None
        except anthropic.RateLimitError:
            raise EngineUnavailable("too many requests") from None
        except anthropic.APITimeoutError:
            raise EngineUnavailable("it timed out") from None
        except anthropic.APIConnectionError:
            raise EngineUnavailable("it could not be reached") from None
        except anthropic.APIStatusError as error:
            raise EngineUnavailable(f"it answered {error.status_code}") from None

    @staticmethod
    def _result(use, execute) -> dict:
        entry = execute(use.name, use.input if isinstance(use.input, dict) else {})
        if entry is None:
            payload, is_error = {"error": "Stopped: too many failed tool calls in this turn."}, True
        elif entry["outcome"] == "executed":
            payload, is_error = {"ok": True, "data": entry["result"]}, False
        elif entry["outcome"] == "needs_confirmation":
            payload, is_error = {"needs_confirmation": True, "summary": entry["summary"]}, False
        else:
            payload, is_error = {"ok": False, "error": entry["error"]}, True
        # Results are data: serialised JSON inside a tool_result block, never text the model should obey.
        return {
            "type": "tool_result",
            "tool_use_id": use.id,
            "content": json.dumps(payload, default=str)[:20000],
            "is_error": is_error,
        }


def remote_mcp_calls(content) -> list[dict]:
    """Tool calls a remote MCP server ran for the model (mcp_tool_use + mcp_tool_result), as tool_calls entries."""
    results = {block.tool_use_id: block for block in content if block.type == "mcp_tool_result"}
    entries = []
    for use in (block for block in content if block.type == "mcp_tool_use"):
        result = results.get(use.id)
        text = " ".join(part.text for part in (result.content if result and not isinstance(result.content, str) else [])
                        if getattr(part, "type", "") == "text") or (result.content if result and isinstance(result.content, str) else "")  # fmt: skip
        name = f"{use.server_name}.{use.name}"
        if result is not None and not result.is_error:
            entries.append({"name": name, "arguments": use.input, "outcome": "executed", "result": {"text": text}})
        else:
            entries.append({"name": name, "arguments": use.input, "outcome": "error",
                            "error": {"code": "remote_tool_error", "message": text or "no result", "kind": "server"}})  # fmt: skip
    return entries


def _alternate(messages: list[dict]) -> list[dict]:
    """The Messages API wants user/assistant turns alternating and starting with the user."""
    merged: list[dict] = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"]:
            merged[-1] = {"role": message["role"], "content": f"{merged[-1]['content']}\n{message['content']}"}
        else:
            merged.append(message)
    while merged and merged[0]["role"] != "user":
        merged.pop(0)
    return merged
