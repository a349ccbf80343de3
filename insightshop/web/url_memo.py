"""url_for with a memo: a shop page builds 60–80 links (header, footer, cards, pickers), mostly the same ones on
every request, and werkzeug's URL building was a tenth of a page's render time."""

from __future__ import annotations

from flask import Flask, has_request_context, request

# Enough for every product page, card and catalog link a busy process sees; past it the memo starts again.
MEMO_ENTRIES = 20_000


class MemoizedUrlFlask(Flask):
    """A Flask app whose url_for remembers the relative URLs it built.

    A relative URL depends only on the endpoint, the values and the script root: the rules are fixed once the app
    serves requests and the shop registers no url_defaults. So only those are memoised; external URLs (which
    depend on the request's host and scheme), blueprint-relative endpoints (".name") and anything outside a request
    go to Flask as before. Values are keyed with their types, since True and 1 build different URLs."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._url_memo: dict[tuple, str] = {}

    def url_for(self, endpoint: str, *, _anchor: str | None = None, _method: str | None = None,
                _scheme: str | None = None, _external: bool | None = None, **values) -> str:  # fmt: skip
        if _external or _scheme or _method or endpoint[:1] == "." or not has_request_context():
            return super().url_for(
                endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme, _external=_external, **values
            )
        key = _memo_key(request.script_root, endpoint, _anchor, values)
        try:
            url = self._url_memo.get(key)
        except TypeError:  # an unhashable value: build it every time
            return super().url_for(endpoint, _anchor=_anchor, **values)
        if url is None:
            url = super().url_for(endpoint, _anchor=_anchor, **values)
            if len(self._url_memo) >= MEMO_ENTRIES:
                self._url_memo.clear()
            self._url_memo[key] = url
        return url


def _memo_key(script_root: str, endpoint: str, anchor: str | None, values: dict) -> tuple:
    items = tuple(
        (name, type(value), tuple(value) if isinstance(value, list | tuple) else value)
        for name, value in values.items()
    )
    return script_root, endpoint, anchor, items
