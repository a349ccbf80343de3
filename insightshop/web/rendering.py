"""One template serves a page and its htmx fragments."""

from __future__ import annotations

from flask import make_response, render_template, request
from jinja2_fragments.flask import render_blocks


def is_fragment_request() -> bool:
    """An htmx request that wants part of a page (history restores need the whole page)."""
    return bool(request.headers.get("HX-Request")) and not request.headers.get("HX-History-Restore-Request")


def render_page(template: str, fragment_blocks: list[str], status: int = 200, **context):
    """Render the whole page, or only `fragment_blocks` for htmx; caches must keep the two apart."""
    if is_fragment_request():
        body = render_blocks(template, fragment_blocks, fragment=True, **context)
    else:
        body = render_template(template, fragment=False, **context)
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response
