"""Form parsing shared by the admin views (the services validate; this only reads the browser's fields)."""

from __future__ import annotations

from flask import flash, redirect, request

from ...forms.shop import EmptyForm
from ...schemas.validation import DB_INT_MAX
from ...services.errors import DomainError


def whole_number(raw: str | None, fallback: int | None = None, *, low: int = 0) -> int | None:
    """A filter or page number typed in a URL or form: digits only, at least `low`, capped at the database's
    INTEGER (an id beyond it simply finds nothing); anything else is the fallback."""
    raw = (raw or "").strip()
    if not raw.isdigit() or int(raw) < low:
        return fallback
    return min(int(raw), DB_INT_MAX)


def csrf_ok() -> bool:
    """Check the CSRF token of a plain admin form."""
    return EmptyForm().validate_on_submit()


def form_dict(
    *fields: str, lists: tuple[str, ...] = (), numbers: tuple[str, ...] = (), flags: tuple[str, ...] = ()
) -> dict:
    """The posted fields as service input: text as given, lists as lists, numbers as numbers, checkboxes as bools."""
    data = {}
    for name in fields:
        value = request.form.get(name, "").strip()
        if name in numbers:
            try:
                data[name] = int(value) if value.lstrip("-").isdigit() else float(value) if value else None
            except ValueError:
                data[name] = value
            if data[name] is None:
                data.pop(name)
        elif value != "":
            data[name] = value
    for name in lists:
        data[name] = [v for v in request.form.getlist(name) if v]
    for name in flags:
        data[name] = name in request.form
    return data


def back(target: str, error: DomainError | None = None, message: str | None = None):
    """Redirect after a POST with a flash message."""
    if error is not None:
        flash(error.message, "error")
    elif message:
        flash(message, "success")
    return redirect(target, 303)
