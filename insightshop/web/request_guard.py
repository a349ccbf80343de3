"""Input every route can rely on: ids that fit the database, no control characters, bounded bodies.

Checked once, before any route runs, so no service ever sees a NUL byte or an id PostgreSQL cannot store."""

from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.routing import IntegerConverter

from ..schemas.validation import CONTROL_CHARACTERS, DB_INT_MAX, find_control_character, parse_strict_json, shorten
from ..services.errors import Invalid


def digits_up_to(limit: int) -> str:
    """A regular expression for the decimal numbers 0…limit: "2147483647" → any 1–9 digits, or 10 digits that
    compare no higher (each alternative keeps a prefix of the limit and then takes a smaller digit)."""
    text = str(limit)
    shorter = [rf"\d{{1,{len(text) - 1}}}"] if len(text) > 1 else []
    smaller = [f"{text[:i]}[0-{int(text[i]) - 1}]" + (rf"\d{{{len(text) - i - 1}}}" if i < len(text) - 1 else "")
               for i in range(len(text)) if text[i] != "0"]  # fmt: skip
    return "(?:" + "|".join([*shorter, *smaller, text]) + ")"


class DatabaseIntegerConverter(IntegerConverter):
    """`<int:…>` in every URL: values beyond an INTEGER column are simply not found (404), never a 500.

    The bound is in the converter's pattern, not only in its conversion: Werkzeug refuses a value that fails
    conversion after the path has matched, and when another rule has the same path for other methods that became a
    405 (POST /api/products/2147483648/reviews) instead of "not found"."""

    regex = digits_up_to(DB_INT_MAX)

    def __init__(self, url_map, fixed_digits=0, min=None, max=None, signed=False):  # noqa: A002 (Werkzeug's names)
        super().__init__(url_map, fixed_digits, min, DB_INT_MAX if max is None else max, signed)


def install_converters(app: Flask) -> None:
    """Before any blueprint registers its rules."""
    app.url_map.converters["int"] = DatabaseIntegerConverter


def init_app(app: Flask) -> None:
    app.before_request(allow_uploads)  # first: the body limit must be set before anything reads the form
    app.before_request(refuse_control_characters)


def accepts_uploads(view):
    """Mark a view that takes file uploads: its requests may be as large as UPLOAD_MAX_BYTES."""
    view.accepts_uploads = True
    return view


def allow_uploads() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    if getattr(view, "accepts_uploads", False):
        request.max_content_length = current_app.config["UPLOAD_MAX_BYTES"]


def refuse_control_characters() -> None:
    """Query strings, form fields and JSON bodies with control characters are refused with one clear error."""
    sources = [request.args] + ([request.form] if _has_form() else [])
    for values in sources:
        for key, value in values.items(multi=True):
            _check(key, key)
            _check(key, value)
    if request.is_json and request.content_length != 0:
        try:
            document = parse_strict_json(request.get_data(cache=True))
        except ValueError:
            return  # malformed JSON gets its own error where the body is read
        found = find_control_character(document)
        if found:
            _refuse(found)


def _has_form() -> bool:
    return request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")


def _check(field: str, text: str) -> None:
    if isinstance(text, str) and CONTROL_CHARACTERS.search(text):
        _refuse(field)


def _refuse(field: str) -> None:
    name = shorten(field)
    message = f"{name} contains a control character (such as a NUL byte), which is not allowed"
    raise Invalid(message, details=[{"field": name, "message": "control characters are not allowed"}])
