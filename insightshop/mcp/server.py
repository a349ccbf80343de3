"""The MCP server (official SDK, low-level API): every registry tool, its schemas and annotations; every call
goes through run_tool with the role of the authenticated principal.

Transports: stdio (`flask --app insightshop mcp stdio --token TOKEN`) and Streamable HTTP at /mcp
(`flask --app insightshop mcp serve`, the Flask app served next to it under one ASGI server).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import click
import mcp_types as types
from flask import Flask
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from ..extensions import db
from ..services import api_tokens
from ..services.actors import Actor
from ..services.errors import DomainError
from ..web.errors import DATABASE_UNAVAILABLE, release_database_session
from ..web.forwarded import client_key, client_key_of
from . import tools_registry
from .http_guard import PRINCIPAL_KEY, AsgiGuard, limits_from, note_database_outage, run_off_loop

log = logging.getLogger(__name__)
request_token: contextvars.ContextVar[str | None] = contextvars.ContextVar("insightshop_mcp_token", default=None)
request_client: contextvars.ContextVar[str | None] = contextvars.ContextVar("insightshop_mcp_client", default=None)


def mcp_client_address() -> str | None:
    """The address of the MCP-over-HTTP caller whose tool call is running (per-client login limits), else None."""
    return request_client.get()


def token_principal(flask_app: Flask, token: str) -> str | None:
    """Whom a valid bearer token stands for ("user:ID" or "guest:ID"), the client its /mcp requests are counted
    for; None for a token that is not valid. An unreachable database raises (DATABASE_UNAVAILABLE)."""
    with flask_app.app_context():
        try:
            actor, _ = api_tokens.actor_for_token(token)
            return f"user:{actor.user.id}" if actor.user is not None else f"guest:{actor.guest_id}"
        except DomainError:
            return None
        finally:
            release_database_session()


def build_server(app: Flask, *, fixed_token: str | None = None) -> Server:
    """An MCP server over the app's tools. With fixed_token (stdio) that token decides the role for every call;
    otherwise each HTTP request's bearer token does."""

    def principal() -> tuple[Actor, Any]:
        # A token that is no longer valid is refused (DomainError), never served as an anonymous caller.
        token = fixed_token if fixed_token is not None else request_token.get()
        if not token:
            return Actor(), None
        return api_tokens.actor_for_token(token)

    def role_of(actor: Actor) -> str:
        return "admin" if actor.is_admin else "user" if actor.has_owner else "anonymous"

    def listed_tools() -> list[types.Tool]:
        try:
            actor, _ = principal()
        except DomainError:
            actor = Actor()  # only the public tools' list; every call with this token is refused
        return [_tool(tool["name"]) for tool in tools_registry.get_tools_for_llm(role_of(actor))]

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await run_off_loop(lambda: _in_app(app, listed_tools)) or [])

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        token = fixed_token if fixed_token is not None else request_token.get()
        arguments = params.arguments if params.arguments is not None else {}
        result = await run_off_loop(lambda: _in_app(app, lambda: call_tool_as(token, params.name, arguments)))
        return tool_result(result or DATABASE_OUTAGE_RESULT)

    return Server(
        "insightshop",
        version="1.0.0",
        instructions="InsightShop's clothing shop tools. Every call is checked: tool exists, arguments match the schema, "
        "the caller may use it.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=lambda name: None,  # the registry validates; the SDK need not fetch schemas per call
    )


DATABASE_OUTAGE_RESULT = {
    "ok": False,
    "error": {"code": "service_unavailable", "message": "The shop is briefly unavailable; try again shortly"},
}


def _in_app(app: Flask, work):
    """work() in an app context of its own (on a worker thread: the event loop never waits on the database). An
    unreachable database is noted (logged once here; over HTTP the request answers 503) and gives None."""
    with app.app_context():
        try:
            return work()
        except DATABASE_UNAVAILABLE as error:
            note_database_outage(error)
            return None
        finally:
            release_database_session()


def call_tool_as(token: str | None, name: str, arguments) -> dict:
    """One MCP tool call as the token's principal, through run_tool (in an app context). A token minted for the
    assistant's connector (it names a conversation) is the assistant acting for that person: the same rule as in
    the chat applies, so a consequential tool becomes a pending confirmation the person approves in the chat.
    Any other token is a client acting as its own principal (like the JSON API): its calls run directly."""
    from ..utils.agent_executor import run_tool

    try:
        actor, token_record = api_tokens.actor_for_token(token) if token else (Actor(), None)
    except DomainError as refused:  # a token that is no longer valid is refused, never served as anonymous
        return {"ok": False, "error": {"code": refused.code, "message": refused.message}}
    conversation_id = api_tokens.token_conversation(token) if token else None
    result = run_tool(name, arguments, actor, api_token=token_record, confirmed=conversation_id is None)
    if not result.get("needs_confirmation"):
        return result
    from ..agent.chat import propose_confirmation

    try:
        proposal = propose_confirmation(actor, conversation_id, name, result["arguments"])
    except DomainError as refused:
        return {"ok": False, "error": {"code": refused.code, "message": refused.message}}
    return result | proposal


def tool_result(result: dict) -> types.CallToolResult:
    """run_tool's answer as an MCP result. A proposal is not a success: the tool did not run (yet)."""
    if result["ok"]:
        data = result["data"]
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(data, default=str))], structured_content=data
        )
    if result.get("needs_confirmation"):
        proposal = {"needs_confirmation": True, "confirmation_id": result["confirmation_id"], "summary": result["summary"],
                    "message": "Not done yet: the shopper must approve this in the shop's chat, where an Approve button "
                    "is shown to them now. Tell them so; do not call the tool again."}  # fmt: skip
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(proposal))], is_error=True)
    error = result["error"]
    return types.CallToolResult(content=[types.TextContent(text=f"{error['code']}: {error['message']}")], is_error=True)


def _tool(name: str) -> types.Tool:
    definition = tools_registry.get_tool_definition(name)
    annotations = definition["annotations"]
    return types.Tool(
        name=name,
        title=annotations.get("title"),
        description=definition["description"],
        input_schema=definition["input_schema"],
        output_schema=definition["output_schema"],
        annotations=types.ToolAnnotations(
            title=annotations.get("title"),
            read_only_hint=annotations["readOnlyHint"],
            destructive_hint=annotations["destructiveHint"],
            idempotent_hint=annotations["idempotentHint"],
            open_world_hint=annotations.get("openWorldHint", False),
        ),
    )


class TokenRefused(click.ClickException):
    """The token given to the stdio server is invalid, expired or revoked (the CLI prints it and exits 1)."""


def check_token(app: Flask, token: str | None) -> None:
    """Refuse to serve with a token that does not work (rather than quietly serving the anonymous tools)."""
    if not token:
        return
    with app.app_context():
        try:
            api_tokens.actor_for_token(token)
        except DomainError as refused:
            raise TokenRefused(f"The MCP token was refused ({refused.code}): {refused.message}") from None
        finally:
            db.session.remove()


def run_stdio(app: Flask, token: str | None) -> None:
    """Serve MCP over stdio; nothing but protocol messages reaches standard output. A bad token: TokenRefused."""
    check_token(app, token)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, force=True)
    server = build_server(app, fixed_token=token or "")

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            with contextlib.redirect_stdout(sys.stderr):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


class _BearerToContext:
    """ASGI wrapper: the request's bearer token and client address, for the tool handlers of this request.
    A bearer token that is invalid, expired or revoked is answered 401 with the JSON error envelope."""

    def __init__(self, asgi_app, flask_app: Flask):
        self.asgi_app = asgi_app
        self.flask_app = flask_app

    async def __call__(self, scope, receive, send):
        token = None
        for key, value in scope.get("headers", []):
            if key == b"authorization":
                raw = value.decode("latin-1")
                if raw.lower().startswith("bearer "):
                    token = raw[7:].strip()
        environ = scope.get("wsgi_environ") or {}
        if token and not environ.get(PRINCIPAL_KEY):  # the WSGI gate found it valid a moment ago
            refusal = await run_off_loop(lambda: self._refusal(token))
            if refusal is not None:
                await _send_json(send, 401, refusal, {b"www-authenticate": b'Bearer error="invalid_token"'})
                return
        client = scope.get("client")
        # The client key the WSGI layer decided (a2wsgi gives no client without REMOTE_PORT), else the peer's.
        address = client_key_of(environ) if environ else client_key(client[0] if client else None)
        reset_token = request_token.set(token)
        reset_client = request_client.set(address or "mcp")
        try:
            await self.asgi_app(scope, receive, send)
        finally:
            request_client.reset(reset_client)
            request_token.reset(reset_token)

    def _refusal(self, token: str) -> dict | None:
        with self.flask_app.app_context():
            try:
                api_tokens.actor_for_token(token)
            except DomainError as refused:
                return refused.to_dict()
            finally:
                release_database_session()
        return None


async def _send_json(send, status: int, body: dict, headers: dict[bytes, bytes]) -> None:
    payload = json.dumps(body).encode()
    raw_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                   (b"cache-control", b"no-store"), *headers.items()]  # fmt: skip
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": payload})


def asgi_app(app: Flask, *, allowed_hosts: list[str] | None = None):
    """One ASGI application: MCP Streamable HTTP at /mcp, the Flask shop everywhere else."""
    from a2wsgi import WSGIMiddleware
    from starlette.applications import Starlette
    from starlette.routing import Mount, Route

    manager = StreamableHTTPSessionManager(
        app=build_server(app),
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=allowed_hosts or ["127.0.0.1:*", "localhost:*"],
            allowed_origins=[f"http://{host}" for host in (allowed_hosts or ["127.0.0.1:*", "localhost:*"])],
        ),
    )

    guarded = AsgiGuard(_BearerToContext(manager.handle_request, app), app.config, limits_from(app.config),
                        principal_of=lambda token: token_principal(app, token))  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(_starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    # Route, not Mount: /mcp itself is served (a Mount would redirect it to /mcp/).
    return Starlette(
        routes=[
            Route("/mcp", endpoint=guarded),  # every method: the guard answers 405 to all but POST
            Mount("/", app=WSGIMiddleware(app)),
        ],  # fmt: skip
        lifespan=lifespan,
    )
