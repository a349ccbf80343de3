"""The current request's id, readable without Flask: the web layer sets it, services (the audit log) read it.

A contextvar rather than flask.g so that services stay free of HTTP: outside a request (the CLI, MCP over stdio,
the receipt worker) it is simply None.
"""

from __future__ import annotations

from contextvars import ContextVar, Token

_request_id: ContextVar[str | None] = ContextVar("insightshop_request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request being handled, or None outside a request."""
    return _request_id.get()


def bind_request_id(request_id: str | None) -> Token:
    """Make request_id current until reset_request_id(token) (the request's teardown)."""
    return _request_id.set(request_id)


def reset_request_id(token: Token) -> None:
    try:
        _request_id.reset(token)
    except ValueError:  # set in another context (a server that moved the request between threads): just clear it
        _request_id.set(None)
