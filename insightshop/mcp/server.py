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
from . import tools_registry

log = logging.getLogger(__name__)
request_token: contextvars.ContextVar[str | None] = contextvars.ContextVar("insightshop_mcp_token", default=None)


def build_server(app: Flask, *, fixed_token: str | None = None) -> Server:
    """An MCP server over the app's tools. With fixed_token (stdio) that token decides the role for every call;
    otherwise each HTTP request's bearer token does."""

    def principal() -> tuple[Actor, Any]:
        token = fixed_token if fixed_token is not None else request_token.get()
        if not token:
            return Actor(), None
        try:
            return api_tokens.actor_for_token(token)
        except DomainError:
            return Actor(), None

    def role_of(actor: Actor) -> str:
        return "admin" if actor.is_admin else "user" if actor.has_owner else "anonymous"

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        with app.app_context():
            actor, _ = principal()
            tools = [_tool(tool["name"]) for tool in tools_registry.get_tools_for_llm(role_of(actor))]
            db.session.remove()
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        from ..utils.agent_executor import run_tool

        with app.app_context():
            try:
                actor, token_record = principal()
                result = run_tool(
                    params.name, params.arguments if params.arguments is not None else {}, actor, api_token=token_record
                )
            finally:
                db.session.remove()
        if result["ok"]:
            data = result["data"]
            return types.CallToolResult(
                content=[types.TextContent(text=json.dumps(data, default=str))], structured_content=data
            )
        error = result["error"]
        return types.CallToolResult(
            content=[types.TextContent(text=f"{error['code']}: {error['message']}")], is_error=True
        )

    return Server(
        "insightshop",
        version="1.0.0",
        instructions="InsightShop's clothing shop tools. Every call is checked: tool exists, arguments match the schema, "
        "the caller may use it.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=lambda name: None,  # the registry validates; the SDK need not fetch schemas per call
    )


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


def run_stdio(app: Flask, token: str | None) -> None:
    """Serve MCP over stdio; nothing but protocol messages reaches standard output."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, force=True)
    server = build_server(app, fixed_token=token or "")

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            with contextlib.redirect_stdout(sys.stderr):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


class _BearerToContext:
    """ASGI wrapper: the request's bearer token, for the tool handlers of this request."""

    def __init__(self, asgi_app):
        self.asgi_app = asgi_app

    async def __call__(self, scope, receive, send):
        token = None
        for key, value in scope.get("headers", []):
            if key == b"authorization":
                raw = value.decode("latin-1")
                if raw.lower().startswith("bearer "):
                    token = raw[7:].strip()
        reset = request_token.set(token)
        try:
            await self.asgi_app(scope, receive, send)
        finally:
            request_token.reset(reset)


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

    async def handle_mcp(scope, receive, send):
        await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    # Route, not Mount: /mcp itself is served (a Mount would redirect it to /mcp/).
    return Starlette(
        routes=[
            Route("/mcp", endpoint=_BearerToContext(handle_mcp), methods=["GET", "POST", "DELETE"]),
            Mount("/", app=WSGIMiddleware(app)),
        ],  # fmt: skip
        lifespan=lifespan,
    )
