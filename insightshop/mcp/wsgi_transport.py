"""MCP Streamable HTTP at /mcp inside the WSGI app that gunicorn serves, so one command and one port serve both.

Each worker process runs the SDK's session manager on an event loop thread of its own (started on the first /mcp
request, after gunicorn has forked) and a2wsgi carries every /mcp request onto that loop. The manager is stateless
with JSON answers: any request may reach any worker of any app server, so no MCP session may live in one process.
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import Future

from flask import Flask
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from ..web.forwarded import TrustedProxies
from .http_guard import AsgiGuard, WsgiGate
from .server import _BearerToContext, build_server, token_principal

MCP_PATH = "/mcp"


def transport_security(app: Flask) -> TransportSecuritySettings:
    """DNS-rebinding protection: the Host and Origin headers the shop itself answers (TRUSTED_HOSTS)."""
    hosts = app.config.get("TRUSTED_HOSTS") or ["127.0.0.1", "localhost"]
    allowed_hosts = [*hosts, *(f"{host}:*" for host in hosts)]
    origins = [
        app.config["PUBLIC_BASE_URL"],
        *(f"{scheme}://{host}" for host in allowed_hosts for scheme in ("http", "https")),
    ]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=allowed_hosts,
                                     allowed_origins=origins)  # fmt: skip


class McpOnWsgi:
    """WSGI middleware: /mcp goes to the MCP server, everything else to the Flask shop. Outermost, the client's
    address is decided once for both (TRUSTED_PROXIES); /mcp then passes the gate of http_guard before the SDK."""

    def __init__(self, flask_app: Flask):
        self.flask_app = flask_app
        self._lock = threading.Lock()
        self._bridge = None
        self._bridge_pid: int | None = None
        self._route_for_client = TrustedProxies(self._route, flask_app.config)
        self.gate = WsgiGate(flask_app.config, principal_of=lambda token: token_principal(flask_app, token))

    def __call__(self, environ, start_response):
        return self._route_for_client(environ, start_response)

    def _route(self, environ, start_response):
        if environ.get("PATH_INFO") == MCP_PATH:
            return self.gate(environ, start_response, self._call_bridge)
        return self.flask_app(environ, start_response)

    def _call_bridge(self, environ, start_response):
        return self._bridge_for_this_process()(environ, start_response)

    def _bridge_for_this_process(self):
        # A loop thread does not survive fork: each worker process starts its own.
        if self._bridge is None or self._bridge_pid != os.getpid():
            with self._lock:
                if self._bridge is None or self._bridge_pid != os.getpid():
                    self._bridge = self._start_bridge()
                    self._bridge_pid = os.getpid()
        return self._bridge

    def _start_bridge(self):
        from a2wsgi import ASGIMiddleware

        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="mcp-event-loop", daemon=True).start()
        manager = StreamableHTTPSessionManager(app=build_server(self.flask_app), stateless=True, json_response=True,
                                               security_settings=transport_security(self.flask_app))  # fmt: skip
        running: Future = Future()

        async def keep_manager_running() -> None:
            async with manager.run():  # the task group every stateless request runs in
                running.set_result(None)
                await asyncio.Event().wait()

        asyncio.run_coroutine_threadsafe(keep_manager_running(), loop)
        running.result(timeout=30)
        guarded = AsgiGuard(_BearerToContext(manager.handle_request, self.flask_app), self.flask_app.config)
        return ASGIMiddleware(guarded, loop=loop)


def with_mcp(flask_app: Flask) -> McpOnWsgi:
    """The shop as one WSGI application with MCP Streamable HTTP at /mcp."""
    return McpOnWsgi(flask_app)
