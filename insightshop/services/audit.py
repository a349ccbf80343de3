"""Writing and reading the audit log."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select

from ..extensions import db
from ..models.audit import AuditEntry
from .actors import Actor

SECRET_FIELDS = frozenset({"password", "new_password", "current_password", "card_number", "token", "client_secret"})


def snapshot(obj, fields: tuple[str, ...]) -> dict:
    """JSON-safe values of some attributes, for before/after records."""
    return {field: _plain(getattr(obj, field)) for field in fields}


def mask(data: dict | None) -> dict | None:
    """A copy with secrets replaced by stars."""
    if data is None:
        return None
    return {k: ("***" if k in SECRET_FIELDS else mask(v) if isinstance(v, dict) else v) for k, v in data.items()}


def record(actor: Actor, action: str, target_type: str, target_id=None, *, before: dict | None = None,
           after: dict | None = None, outcome: str = "ok", duration_ms: int | None = None) -> AuditEntry:  # fmt: skip
    """Add an audit entry to the current transaction (the caller commits it with the change)."""
    entry = AuditEntry(
        actor_id=actor.user.id if actor.user else None,
        actor_label=actor.user.email if actor.user else (f"guest:{actor.guest_id}" if actor.guest_id else "anonymous"),
        action=action,
        target_type=target_type,
        target_id=None if target_id is None else str(target_id),
        before=mask(before),
        after=mask(after),
        outcome=outcome,
        duration_ms=duration_ms,
    )
    db.session.add(entry)
    return entry


def list_entries(*, action: str | None = None, actor_label: str | None = None, limit: int = 50, offset: int = 0):
    """Newest entries first, optionally filtered."""
    statement = select(AuditEntry).order_by(AuditEntry.id.desc())
    if action:
        statement = statement.where(AuditEntry.action == action)
    if actor_label:
        statement = statement.where(AuditEntry.actor_label.ilike(f"%{actor_label}%"))
    return list(db.session.scalars(statement.limit(limit).offset(offset)))


def _plain(value):
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
