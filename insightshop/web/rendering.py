"""One template serves a page and its htmx fragments."""

from __future__ import annotations

from flask import make_response, render_template, request
from jinja2_fragments.flask import render_blocks


def is_fragment_request() -> bool:
    """An htmx request that wants part of a page (history restores need the whole page)."""
    return wants_fragment(request.environ)


def wants_fragment(environ: dict) -> bool:
    """is_fragment_request for a WSGI environ, before any Flask request exists (the page cache's key)."""
    return bool(environ.get("HTTP_HX_REQUEST")) and not environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST")


def render_page(template: str, fragment_blocks: list[str], status: int = 200, **context):
    """Render the whole page, or only `fragment_blocks` for htmx; caches must keep the two apart."""
    if is_fragment_request():
        body = render_blocks(template, fragment_blocks, fragment=True, **context)
    else:
        body = render_template(template, fragment=False, **context)
    response = make_response(body, status)
    response.vary.add("HX-Request")
    response.vary.add("HX-Target")
    return response
