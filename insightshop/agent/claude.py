"""The Claude engine: the official anthropic SDK with tool use. Every local tool call goes through the guard (the
chat service's execute → run_tool); tool results go back to the model as data, never as instructions. Remote MCP
servers (the connector) get a credential of the caller, never one shared token: the shop's own server a
short-lived token minted for this person and conversation, which the server treats like a chat call (the guard,
then Approve for consequential tools)."""

from __future__ import annotations

import contextlib
import copy
import json
import logging

import anthropic

from ..mcp.tools_registry import get_tools_for_llm
from ..services import api_tokens
from ..services.anthropic_client import anthropic_client, describe_failure
from . import replies
from .engines import EngineUnavailable, Plan
from .prompts import system_prompt, volatile_context
from .receipt_documents import ReceiptDocuments
from .redaction import redact

log = logging.getLogger(__name__)

MAX_ROUNDS = 6
MAX_TOKENS = 4096  # adaptive thinking counts against it; a short answer still needs room
HISTORY_SENT = 24  # messages sent per request, this turn's included
CONNECTOR_TOKEN_MINUTES = 10
MCP_BETA = "mcp-client-2025-11-20"
CONTEXT_BETA = "context-management-2025-06-27"
CONTEXT_MANAGEMENT = {
    "edits": [
        {
            "type": "clear_tool_uses_20250919",
            "trigger": {"type": "input_tokens", "value": 25000},
            "keep": {"type": "tool_uses", "value": 5},
            "clear_at_least": {"type": "input_tokens", "value": 2000},
        }
    ]
}
EPHEMERAL = {"type": "ephemeral"}
REFUSAL_REPLY = "Sorry, I can't help with that request."
UNCACHEABLE = ("thinking", "redacted_thinking")
_warned_models: set[str] = set()


class ClaudeEngine:
    name = "claude"
    takes_caller = True  # engines.respond passes actor and conversation_id (the connector's credentials)

    def __init__(self, config: dict):
        self.model = config["ANTHROPIC_MODEL"]
        self.client = anthropic_client(config, max_retries=1, timeout=30.0)
        self.mcp_servers = connector_servers(config.get("ANTHROPIC_MCP_SERVERS"))
        _report_deprecation(self.model)

    def respond(self, message: str, context: dict, *, is_admin: bool, history: list[dict], execute, observe=None,
                actor=None, conversation_id: str | None = None) -> Plan:  # fmt: skip
        role = "admin" if is_admin else "user"
        system = [
            {"type": "text", "text": system_prompt(role), "cache_control": EPHEMERAL},
            {"type": "text", "text": volatile_context()},  # after the breakpoint: the cached prefix stays the same
        ]
        messages = conversation_messages(history, message)
        with connector_credentials(self.mcp_servers, actor, conversation_id) as servers:
            tools = get_tools_for_llm(role) + [toolset(server) for server in self.mcp_servers]
            if tools:
                tools[-1] = {**tools[-1], "cache_control": EPHEMERAL}  # caches the whole tool list
            turn = _Turn(self, system, tools, servers, execute, observe, ReceiptDocuments(actor))
            return Plan(reply=turn.run(messages), context=context, citations=turn.links)

    def create(self, system, tools, messages, servers):
        """One Messages API call (beta: context management, and the MCP connector when servers are configured)."""
        betas = [CONTEXT_BETA] + ([MCP_BETA] if servers else [])
        kwargs = {"model": self.model, "max_tokens": MAX_TOKENS, "system": system, "tools": tools,
                  "messages": with_cache_breakpoint(messages), "context_management": CONTEXT_MANAGEMENT, "betas": betas}  # fmt: skip
        if servers:
            kwargs["mcp_servers"] = servers
        try:
            return self.client.beta.messages.create(**kwargs)
        except anthropic.APIError as error:
            raise unavailable(error, self.model) from None


class _Turn:
    """The tool loop of one turn: each round's tool calls run through the guard; never a partial tool call."""

    def __init__(self, engine: ClaudeEngine, system, tools, servers, execute, observe, documents: ReceiptDocuments):
        self.engine, self.system, self.tools, self.servers = engine, system, tools, servers
        self.execute, self.observe, self.documents = execute, observe, documents
        self.entries: list[dict] = []
        self.links: list[dict] = []  # the reply's citations, mapped onto receipt fields

    def run(self, messages: list[dict]) -> str | None:
        carried: list[str] = []  # text of paused responses, continued in the next call
        for _ in range(MAX_ROUNDS):
            response = self.engine.create(self.system, self.tools, messages, self.servers)
            self._remote(response.content)
            texts = carried + self._texts(response.content)
            uses = [block for block in response.content if block.type == "tool_use"]
            stop = response.stop_reason
            if stop == "pause_turn":  # a long server-side step: send the response back as is to continue
                messages.append({"role": "assistant", "content": _dump(response.content)})
                carried = texts
                continue
            if stop == "refusal":
                return REFUSAL_REPLY
            if stop == "max_tokens":
                return cut_short(texts, uses)
            if stop != "tool_use" or not uses:
                return (_join_cited(texts) if self.links else _join(texts)) or None
            messages.append({"role": "assistant", "content": _dump(response.content)})
            messages.append({"role": "user", "content": [self._result(use) for use in uses]})
            carried = []
        return closing(self.entries)

    def _remote(self, content) -> None:
        for entry in remote_mcp_calls(content):
            self.entries.append(entry)
            if self.observe is not None:
                self.observe(entry)

    def _result(self, use) -> dict:
        entry = self.execute(use.name, use.input if isinstance(use.input, dict) else {})
        if entry is not None:
            self.entries.append(entry)
        return tool_result(use.id, entry, self.documents.for_entry(entry))

    def _texts(self, content) -> list[str]:
        """The text blocks; a block citing receipt lines ends with the cited field's short citation (and its
        trust note), which the panel links to the receipt page."""
        texts = []
        for block in (b for b in content if b.type == "text"):
            found = [self.documents.link(c) for c in block.citations or []]
            found = list({f["url"]: f for f in found if f}.values())
            self.links.extend({"text": f["text"], "url": f["url"]} for f in found)
            marks = "".join(f" {f['text']}{f['note']}" for f in found)
            body = block.text.rstrip()
            texts.append(body + marks + block.text[len(body) :] if marks else block.text)
        return texts


def tool_result(use_id: str, entry: dict | None, documents: list[dict] | None = None) -> dict:
    """A tool_result block. Results are data: serialised JSON, never text the model should obey. Receipt tools'
    results carry the receipts' lines beside the JSON as citable documents (tool_result content accepts document
    blocks), so a citation points at a line of a receipt the tool returned."""
    if entry is None:
        payload, is_error = {"error": "Stopped: too many failed tool calls in this turn."}, True
    elif entry["outcome"] == "executed":
        payload, is_error = {"ok": True, "data": entry["result"]}, False
    elif entry["outcome"] == "needs_confirmation":
        payload, is_error = {"needs_confirmation": True, "summary": entry["summary"],
                             "message": "Not done yet: the shopper sees an Approve button for this."}, False  # fmt: skip
    else:
        payload, is_error = {"ok": False, "error": entry["error"]}, True
    content = json.dumps(payload, default=str)[:20000]
    if documents:
        content = [{"type": "text", "text": content}, *documents]
    return {"type": "tool_result", "tool_use_id": use_id, "content": content, "is_error": is_error}


def cut_short(texts: list[str], uses: list) -> str:
    """max_tokens: the answer was cut off. A tool call cut mid-way is never run."""
    said = _join(texts)
    if uses:
        note = "My answer was cut off before I could finish that step, so I did not do it. Please ask again, one step at a time."
    else:
        note = "(My answer was cut off here.)"
    return f"{said} {note}".strip()


def closing(entries: list[dict]) -> str:
    """The reply after the last allowed round: what was done, and an invitation to go on."""
    done = f" So far: {replies.compose(entries)}" if entries else ""
    return f"I've stopped after {MAX_ROUNDS} steps in this turn.{done} Tell me how you'd like to continue."


def conversation_messages(history: list[dict], message: str) -> list[dict]:
    """The last HISTORY_SENT messages, this one once, with secrets redacted before they leave the shop."""
    previous = [{"role": m["role"], "content": redact(m["content"])} for m in history if m.get("content")]
    return _alternate(previous[-(HISTORY_SENT - 1) :] + [{"role": "user", "content": redact(message)}])


def with_cache_breakpoint(messages: list[dict]) -> list[dict]:
    """A copy whose last cacheable block carries cache_control: the conversation so far is cached too."""
    request = copy.deepcopy(messages)
    last = request[-1]
    if isinstance(last["content"], str):
        last["content"] = [{"type": "text", "text": last["content"]}]
    for block in reversed(last["content"]):
        if block.get("type") not in UNCACHEABLE:
            block["cache_control"] = EPHEMERAL
            break
    return request


# The MCP connector ------------------------------------------------------------------------------------------


def connector_servers(raw: str | None) -> list[dict]:
    """ANTHROPIC_MCP_SERVERS: a JSON list of {"name", "url", "credential"?: "caller", "allowed_tools"?: [...]}.
    A configured authorization_token is never sent: one token for every caller would lend its rights to guests."""
    if not raw:
        return []
    entries = json.loads(raw)
    servers = []
    for entry in entries if isinstance(entries, list) else [entries]:
        if entry.get("authorization_token"):
            log.warning("ANTHROPIC_MCP_SERVERS: the authorization_token of %s is ignored; use \"credential\": "
                        "\"caller\" for the shop's own server", entry.get("name"))  # fmt: skip
        server = {"type": "url", "url": entry["url"], "name": entry["name"]}
        if entry.get("credential") == "caller":
            server["credential"] = "caller"
        if isinstance(entry.get("allowed_tools"), list):
            server["allowed_tools"] = [str(name) for name in entry["allowed_tools"]]
        servers.append(server)
    return servers


def toolset(server: dict) -> dict:
    """The mcp_toolset entry that exposes a server's tools (only the allowed ones, when a list is configured)."""
    entry = {"type": "mcp_toolset", "mcp_server_name": server["name"]}
    if server.get("allowed_tools") is not None:
        entry["default_config"] = {"enabled": False}
        entry["configs"] = {name: {"enabled": True} for name in server["allowed_tools"]}
    return entry


@contextlib.contextmanager
def connector_credentials(servers: list[dict], actor, conversation_id: str | None):
    """The servers as the API wants them for this turn: the shop's own server ("credential": "caller") gets a
    token minted for this person (their role) and conversation, revoked when the turn ends; others get none."""
    minted, request = [], []
    try:
        for server in servers:
            entry = {key: server[key] for key in ("type", "url", "name")}
            if server.get("credential") == "caller" and actor is not None and actor.has_owner:
                token, record = api_tokens.issue_token(actor.user, guest_id=None if actor.user else actor.guest_id,
                                                       minutes=CONNECTOR_TOKEN_MINUTES, conversation_id=conversation_id)  # fmt: skip
                minted.append(record)
                entry["authorization_token"] = token
            request.append(entry)
        yield request
    finally:
        for record in minted:
            try:
                api_tokens.revoke_token(record)
            except Exception:  # the token expires within minutes anyway
                log.exception("Could not revoke a connector token")


def remote_mcp_calls(content) -> list[dict]:
    """Tool calls a remote MCP server ran for the model (mcp_tool_use + mcp_tool_result), as tool_calls entries.
    The shop's own server answers a consequential call with needs_confirmation and the pending confirmation's id."""
    results = {block.tool_use_id: block for block in content if block.type == "mcp_tool_result"}
    entries = []
    for use in (block for block in content if block.type == "mcp_tool_use"):
        result = results.get(use.id)
        text = _result_text(result)
        entry = {"name": f"{use.server_name}.{use.name}", "arguments": use.input}
        proposal = _proposal(text)
        if proposal is not None:
            entries.append(entry | {"outcome": "needs_confirmation", "tool": use.name,
                                    "confirmation_id": proposal["confirmation_id"], "summary": proposal["summary"]})  # fmt: skip
        elif result is not None and not result.is_error:
            entries.append(entry | {"outcome": "executed", "result": {"text": text}})
        else:
            entries.append(entry | {"outcome": "error", "error": {"code": "remote_tool_error",
                                                                  "message": text or "no result", "kind": "server"}})  # fmt: skip
    return entries


def _result_text(result) -> str:
    if result is None:
        return ""
    if isinstance(result.content, str):
        return result.content
    return " ".join(part.text for part in result.content if getattr(part, "type", "") == "text")


def _proposal(text: str) -> dict | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if (
        isinstance(data, dict)
        and data.get("needs_confirmation") is True
        and isinstance(data.get("confirmation_id"), str)
    ):
        return {"confirmation_id": data["confirmation_id"], "summary": str(data.get("summary", ""))[:500]}
    return None


# Errors -----------------------------------------------------------------------------------------------------


def unavailable(error: anthropic.APIError, model: str) -> EngineUnavailable:
    """The API's failure as EngineUnavailable with a kind: configuration problems (key, model) are told apart
    from passing ones (rate limit, overload, network), so the admin page can say what to fix."""
    failure = describe_failure(error, model)
    return EngineUnavailable(failure.message, kind=failure.kind, detail=failure.detail)


def _report_deprecation(model: str) -> None:
    """A model the SDK lists as deprecated: the log says so once per process, the admin page always does."""
    from .engines import model_retirement

    retires = model_retirement(model)
    if retires and model not in _warned_models:
        _warned_models.add(model)
        log.warning(
            "ANTHROPIC_MODEL %s is deprecated and reaches end-of-life on %s: choose a current model", model, retires
        )


def _dump(content) -> list[dict]:
    return [block.model_dump(exclude_none=True) for block in content]


def _join_cited(texts: list[str]) -> str:
    """A cited answer comes in pieces split at its citations: they join as written."""
    return " ".join("".join(texts).split(" ")).strip()


def _join(texts: list[str]) -> str:
    return " ".join(t.strip() for t in texts if t.strip())


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
