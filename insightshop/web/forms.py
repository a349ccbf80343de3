"""Putting service errors onto form fields, and safe redirects after a form."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask_wtf import FlaskForm

from ..services.errors import DomainError


def show_error(form: FlaskForm, error: DomainError, *, aliases: dict[str, str] | None = None) -> None:
    """Attach a service error to the form fields it names (or to the form as a whole)."""
    placed = False
    for detail in error.details:
        name = (aliases or {}).get(detail.get("field", ""), detail.get("field", "")) if isinstance(detail, dict) else ""
        field = getattr(form, name, None) if name else None
        if field is not None and hasattr(field, "errors"):
            field.errors = [*field.errors, detail.get("message", error.message)]
            placed = True
    if not placed:
        form.form_errors.append(error.message)


def safe_next(target: str | None, default: str) -> str:
    """A redirect target on this site only (no open redirects)."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target
