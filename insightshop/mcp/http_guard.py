"""What keeps /mcp from taking the shop down: every /mcp request holds a gunicorn thread while the MCP SDK answers
it on the process's event loop, so the requests that may do so are few, short and bounded.

- Only POST: stateless Streamable HTTP has no standalone GET stream (an SSE stream would hold a thread for as long
  as the client keeps it open) and no session to DELETE. Anything else answers 405 with `Allow: POST` at once.
- Bodies: at most MAX_REQUEST_BYTES, with a Content-Length (none, e.g. chunked: 411), read before the request
  reaches the SDK and within the request's deadline.
- In flight at once, per worker process: MCP_MAX_CONCURRENT in total (more: 503) and MCP_MAX_CONCURRENT_PER_CLIENT
  per client (more: 429), both with Retry-After. The client is the principal of a valid bearer token (one shopper
  behind a shared connector or office address is not every shopper there), else the client key of web.forwarded
  (the address; an IPv6 client's /64). A request's place is given back when its answer is sent and every tool call
  it started has finished. These count threads of this process, not shared state: a request in flight is in one
  process only. Under gunicorn the total is also kept below the worker's real thread count (set_worker_threads), so
  at least one thread always stays free for the pages.
- MCP_REQUEST_TIMEOUT_SECONDS per request; later, 503 with Retry-After. Tool calls run on worker threads so that
  the event loop stays free to answer everything else on time.
- The database unreachable: 503 with Retry-After and a JSON-RPC error, logged, as pages and /api answer.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from io import BytesIO

import anyio
from werkzeug.wsgi import ClosingIterator

from ..services.errors import ErrorCode
from ..web.errors import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS
from ..web.forwarded import client_key, client_key_of

log = logging.getLogger("insightshop.mcp")

ALLOWED_METHODS = "POST"
SLOT_KEY = "insightshop.mcp_slot"
DEADLINE_KEY = "insightshop.mcp_deadline"
PRINCIPAL_KEY = "insightshop.mcp_principal"  # the bearer token's principal, once the gate found the token valid
BUSY_RETRY_AFTER_SECONDS = 1
JSONRPC_INVALID_REQUEST = -32600
JSONRPC_SERVER_ERROR = -32000


@dataclass
class Answer:
    """A small JSON answer made here, before or instead of the SDK's, for WSGI or ASGI."""

    status: int
    body: dict
    headers: dict[str, str] = field(default_factory=dict)

    def _encoded(self) -> tuple[bytes, list[tuple[str, str]]]:
        payload = json.dumps(self.body).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(payload))),
                   ("Cache-Control", "no-store"), *self.headers.items()]  # fmt: skip
        return payload, headers

    def wsgi(self, start_response) -> list[bytes]:
        from http import HTTPStatus

        payload, headers = self._encoded()
        start_response(f"{self.status} {HTTPStatus(self.status).phrase}", headers)
        return [payload]

    async def asgi(self, send) -> None:
        payload, headers = self._encoded()
        raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]
        await send({"type": "http.response.start", "status": self.status, "headers": raw})
        await send({"type": "http.response.body", "body": payload})


def error_answer(status: int, code: ErrorCode, message: str, *, request_id=None, retry_after: int | None = None,
                 headers: dict[str, str] | None = None) -> Answer:  # fmt: skip
    """A JSON-RPC error (as the SDK's own HTTP errors are) carrying the shop's stable error code in `data`."""
    number = JSONRPC_INVALID_REQUEST if status < 500 and status != 429 else JSONRPC_SERVER_ERROR
    body = {"jsonrpc": "2.0", "id": request_id,
            "error": {"code": number, "message": message, "data": {"code": str(code)}}}  # fmt: skip
    extra = dict(headers or {})
    if retry_after is not None:
        extra["Retry-After"] = str(retry_after)
    return Answer(status, body, extra)


def method_not_allowed() -> Answer:
    return error_answer(405, ErrorCode.METHOD_NOT_ALLOWED,
                        "This MCP server is stateless: send JSON-RPC messages with POST (no GET stream, no sessions)",
                        headers={"Allow": ALLOWED_METHODS})  # fmt: skip


def database_unavailable_answer(request_id=None) -> Answer:
    return error_answer(503, ErrorCode.SERVICE_UNAVAILABLE,
                        "The shop is briefly unavailable. Please try again in a few seconds.",
                        request_id=request_id, retry_after=RETRY_AFTER_SECONDS)  # fmt: skip


class Slot:
    """One request's place within the limits: given back when its answer is sent (the WSGI response closed) and
    every tool call it started is done, whichever comes last."""

    def __init__(self, limits: McpLimits, client: str):
        self._limits = limits
        self.client = client
        self._holders = 1
        self._lock = threading.Lock()

    def hold(self) -> None:
        with self._lock:
            self._holders += 1

    def release(self) -> None:
        with self._lock:
            if self._holders == 0:
                return
            self._holders -= 1
            done = self._holders == 0
        if done:
            self._limits.leave(self.client)


_worker_threads: int | None = None  # gunicorn's real threads per worker, once its post_worker_init said so


def set_worker_threads(threads: int) -> None:
    """The threads this worker process really has (deploy/gunicorn.conf.py, post_worker_init: --threads or
    GUNICORN_CMD_ARGS may differ from WEB_THREADS, which MCP_MAX_CONCURRENT's default is derived from). MCP
    requests in flight are then kept to one fewer, so a page always has a thread; with one thread, /mcp answers 503."""
    global _worker_threads
    _worker_threads = max(1, int(threads))
    if _worker_threads < 2:
        log.warning("gunicorn runs 1 thread per worker: /mcp answers 503 so that it cannot take the pages' only "
                    "thread; set WEB_THREADS to 2 or more to serve MCP")  # fmt: skip


def worker_threads() -> int | None:
    return _worker_threads


class McpLimits:
    """MCP requests in flight in this process, in total and per client (a token's principal, else the address)."""

    def __init__(self, total: int, per_client: int):
        self.total = max(1, int(total))
        self.per_client = max(1, int(per_client))
        self._lock = threading.Lock()
        self._in_flight = 0
        self._by_client: dict[str, int] = {}

    @property
    def capacity(self) -> int:
        """The total in flight allowed: MCP_MAX_CONCURRENT, and one fewer than the worker's real threads."""
        threads = _worker_threads
        return self.total if threads is None else min(self.total, threads - 1)

    def enter(self, client: str) -> tuple[Slot | None, Answer | None]:
        """A place for one more request of `client`, or the refusal to answer instead."""
        with self._lock:
            if self.capacity < 1:
                return None, error_answer(503, ErrorCode.UNAVAILABLE,
                                          "MCP is not served by this server: it runs one thread per worker")  # fmt: skip
            if self._by_client.get(client, 0) >= self.per_client:
                return None, error_answer(429, ErrorCode.RATE_LIMITED,
                                          "Too many MCP requests at once from this client; wait for an answer first",
                                          retry_after=BUSY_RETRY_AFTER_SECONDS)  # fmt: skip
            if self._in_flight >= self.capacity:
                return None, error_answer(503, ErrorCode.UNAVAILABLE, "The MCP server is busy; try again shortly",
                                          retry_after=BUSY_RETRY_AFTER_SECONDS)  # fmt: skip
            self._in_flight += 1
            self._by_client[client] = self._by_client.get(client, 0) + 1
        return Slot(self, client), None

    def leave(self, client: str) -> None:
        with self._lock:
            self._in_flight -= 1
            left = self._by_client.get(client, 1) - 1
            if left > 0:
                self._by_client[client] = left
            else:
                self._by_client.pop(client, None)

    @property
    def in_flight(self) -> int:
        return self._in_flight


def limits_from(config) -> McpLimits:
    return McpLimits(config["MCP_MAX_CONCURRENT"], config["MCP_MAX_CONCURRENT_PER_CLIENT"])


def bearer_of(authorization: str | None) -> str | None:
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class WsgiGate:
    """In the gunicorn thread, before the request goes to the event loop: method, body size and body (read within
    the deadline), and a place within the limits. `bridge` is the WSGI side of the MCP SDK (a2wsgi).
    `principal_of(token)` names a valid bearer token's principal (None for an invalid one): the client its
    requests are counted for."""

    def __init__(self, config, limits: McpLimits | None = None, principal_of=None):
        self.config = config
        self.limits = limits or limits_from(config)
        self.principal_of = principal_of

    def __call__(self, environ, start_response, bridge):
        if environ.get("REQUEST_METHOD") != "POST":
            return method_not_allowed().wsgi(start_response)
        if not str(environ.get("CONTENT_LENGTH") or "").strip():
            # A chunked body (or none announced): its size is unknown until read, so it is refused, not read as empty.
            return error_answer(411, ErrorCode.BAD_REQUEST,
                                "Send the JSON-RPC message with a Content-Length").wsgi(start_response)  # fmt: skip
        try:
            length = int(environ["CONTENT_LENGTH"])
        except ValueError:
            length = -1
        if length < 0:
            return error_answer(400, ErrorCode.BAD_REQUEST, "Bad Content-Length").wsgi(start_response)
        if length > self.config["MAX_CONTENT_LENGTH"]:
            return error_answer(413, ErrorCode.PAYLOAD_TOO_LARGE, "The request body is too large").wsgi(start_response)
        try:
            client = self.client_of(environ)
        except DATABASE_UNAVAILABLE as error:
            note_database_outage(error)
            return database_unavailable_answer().wsgi(start_response)
        slot, refusal = self.limits.enter(client)
        if refusal is not None:
            return refusal.wsgi(start_response)
        try:
            timeout = float(self.config["MCP_REQUEST_TIMEOUT_SECONDS"])
            deadline = time.monotonic() + timeout
            body = read_body(environ, length, timeout)
            if body is None:
                slot.release()
                return error_answer(408, ErrorCode.BAD_REQUEST,
                                    f"The request body did not arrive within {timeout:g} s").wsgi(start_response)  # fmt: skip
            environ["wsgi.input"] = BytesIO(body)
            environ[SLOT_KEY] = slot
            environ[DEADLINE_KEY] = deadline
            return ClosingIterator(bridge(environ, start_response), slot.release)
        except BaseException:
            slot.release()
            raise

    def client_of(self, environ) -> str:
        """Who the limits count this request for: a valid bearer token's principal, else the client key."""
        token = bearer_of(environ.get("HTTP_AUTHORIZATION"))
        principal = self.principal_of(token) if token and self.principal_of is not None else None
        if principal is not None:
            environ[PRINCIPAL_KEY] = principal
            return principal
        return client_key_of(environ)


def read_body(environ, length: int, timeout: float) -> bytes | None:
    """The whole body, or None when it did not come within `timeout` seconds (a client sending it slowly, or not
    at all, must not keep the thread). Under gunicorn a watchdog shuts the socket's reading side at the deadline."""
    if length == 0:
        return b""
    sock = environ.get("gunicorn.socket")
    watchdog = threading.Timer(timeout, _stop_reading, (sock,)) if sock is not None else None
    if watchdog is not None:
        watchdog.daemon = True
        watchdog.start()
    try:
        body = environ["wsgi.input"].read(length)
    except Exception:  # the socket shut by the watchdog, or the client gone
        return None
    finally:
        if watchdog is not None:
            watchdog.cancel()
    return body if len(body) == length else None


def _stop_reading(sock) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RD)


@dataclass
class RequestState:
    slot: Slot | None
    outage: bool = False


current_request: contextvars.ContextVar[RequestState | None] = contextvars.ContextVar(
    "insightshop_mcp_request", default=None
)


def note_database_outage(error: BaseException) -> None:
    """A tool or token check met an unreachable database: logged, and this request answers 503."""
    log.warning("Database unavailable during an MCP request (%s): %s", type(error).__name__,
                (str(error).strip().splitlines() or [""])[0][:300])  # fmt: skip
    state = current_request.get()
    if state is not None:
        state.outage = True


async def run_off_loop(work):
    """Blocking work (the database, the services) on a worker thread, so the event loop keeps answering other
    requests and enforcing their deadlines. The request keeps its place until the work is done, even when its
    answer (a timeout) went out before."""
    state = current_request.get()
    slot = state.slot if state is not None else None
    if slot is not None:
        slot.hold()
    try:
        return await anyio.to_thread.run_sync(work)
    finally:
        if slot is not None:
            slot.release()


class AsgiGuard:
    """ASGI wrapper around the MCP SDK: POST only, the request's deadline, a place within the limits when no WSGI
    gate gave one (the uvicorn server of `flask mcp serve`), and the database outage answered as 503."""

    def __init__(self, asgi_app, config, limits: McpLimits | None = None, principal_of=None):
        self.asgi_app = asgi_app
        self.config = config
        self.limits = limits
        self.principal_of = principal_of

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "http":
            return await self.asgi_app(scope, receive, send)
        if scope.get("method") != "POST":
            return await method_not_allowed().asgi(send)
        environ = scope.get("wsgi_environ") or {}
        slot, own_slot = environ.get(SLOT_KEY), None
        if slot is None and self.limits is not None:
            try:
                client = await self._client_of(scope)
            except DATABASE_UNAVAILABLE as error:
                note_database_outage(error)
                return await database_unavailable_answer().asgi(send)
            own_slot, refusal = self.limits.enter(client)
            if refusal is not None:
                return await refusal.asgi(send)
            slot = own_slot
        timeout = float(self.config["MCP_REQUEST_TIMEOUT_SECONDS"])
        deadline = environ.get(DEADLINE_KEY) or time.monotonic() + timeout
        state = RequestState(slot)
        reset = current_request.set(state)
        try:
            await self._answer(scope, receive, send, state, deadline, timeout)
        finally:
            current_request.reset(reset)
            if own_slot is not None:
                own_slot.release()

    async def _client_of(self, scope) -> str:
        headers = dict(scope.get("headers") or [])
        token = bearer_of(headers.get(b"authorization", b"").decode("latin-1"))
        if token and self.principal_of is not None:
            principal = await anyio.to_thread.run_sync(self.principal_of, token)
            if principal is not None:
                return principal
        client = scope.get("client")
        return client_key(client[0] if client else None)

    async def _answer(self, scope, receive, send, state: RequestState, deadline: float, timeout: float) -> None:
        exchange = _Exchange(receive, send, state, self.config["MAX_CONTENT_LENGTH"])
        with anyio.move_on_after(max(0.0, deadline - time.monotonic())) as timer:
            try:
                await self.asgi_app(scope, exchange.receive, exchange.send)
            except DATABASE_UNAVAILABLE as error:  # the bearer token's check, before any tool ran
                note_database_outage(error)
        if exchange.started:
            return
        if state.outage:
            await database_unavailable_answer(exchange.request_id()).asgi(send)
        elif timer.cancelled_caught:
            log.warning("An MCP request took longer than %g s and was answered 503", timeout)
            await error_answer(503, ErrorCode.UNAVAILABLE, f"The request took longer than {timeout:g} s",
                               request_id=exchange.request_id(), retry_after=RETRY_AFTER_SECONDS).asgi(send)  # fmt: skip


class _Exchange:
    """The SDK's side of one request: its body is kept (for the JSON-RPC id of an answer made here), and its answer
    is replaced by a 503 when the database turned out to be unreachable (the SDK would say 200, internal error)."""

    def __init__(self, receive, send, state: RequestState, max_body: int):
        self._receive, self._send, self._state, self._max_body = receive, send, state, max_body
        self.body = bytearray()
        self.started = self.replaced = False

    async def receive(self):
        message = await self._receive()
        if message.get("type") == "http.request" and len(self.body) < self._max_body:
            self.body.extend(message.get("body", b""))
        return message

    async def send(self, message) -> None:
        if self.replaced:
            return
        if message["type"] == "http.response.start":
            self.started = True
            if self._state.outage:
                self.replaced = True
                return await database_unavailable_answer(self.request_id()).asgi(self._send)
        await self._send(message)

    def request_id(self):
        return _request_id(self.body)


def _request_id(body: bytes | bytearray):
    try:
        message = json.loads(bytes(body))
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, str | int) and not isinstance(request_id, bool) else None
