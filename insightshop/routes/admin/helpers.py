"""Form parsing shared by the admin views (the services validate; this only reads the browser's fields)."""

from __future__ import annotations

from flask import flash, redirect, request

from ...forms.shop import EmptyForm
from ...schemas.validation import DB_INT_MAX
from ...schemas.validation import whole_number as ascii_whole_number
from ...services.errors import DomainError


def whole_number(raw: str | None, fallback: int | None = None, *, low: int = 0) -> int | None:
    """A filter or page number typed in a URL or form: digits only, at least `low`, capped at the database's
    INTEGER (an id beyond it simply finds nothing); anything else is the fallback."""
    number = ascii_whole_number(raw)
    if number is None or number < low:
        return fallback
    return min(number, DB_INT_MAX)


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


# What an admin reads next to a field the product service refused (its own messages name schema rules).
PRODUCT_FIELD_HINTS = {
    "name": "Give the product a name (up to 255 characters).",
    "description": "The description is too long.",
    "price": "Enter a price from $0.00 to $100,000.00, like 49.95.",
    "stock_quantity": "Enter a whole number of items from 0 to 100,000, or leave it empty.",
    "category": "Choose a department.",
    "available_colors": "Tick at least one colour.",
    "available_sizes": "Tick at least one size.",
}


def field_problems(error: DomainError | None, hints: dict[str, str]) -> dict[str, str]:
    """A refused save's problems by form field, in words for people (the page shows each one once, at its field)."""
    problems: dict[str, str] = {}
    for detail in (error.details if error else []) or []:
        if not isinstance(detail, dict) or not detail.get("field"):
            continue
        field = str(detail["field"]).split(".")[0]
        problems.setdefault(field, hints.get(field) or str(detail.get("message", "")).split(": ", 1)[-1])
    return problems
