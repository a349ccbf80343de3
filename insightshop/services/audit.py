"""Writing and reading the audit log."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from ..extensions import db
from ..models.audit import AuditEntry
from ..observability.request_context import current_request_id
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
        request_id=current_request_id(),
    )
    db.session.add(entry)
    return entry


@dataclass(frozen=True)
class Change:
    field: str
    before: str
    after: str


@dataclass(frozen=True)
class AuditPage:
    entries: list[AuditEntry]
    page: int
    pages: int
    total: int


def changes(entry: AuditEntry) -> list[Change]:
    """What an entry changed, field by field, values shortened for reading (only fields that differ, or every
    field when there is only one side, as for a tool call's arguments and result)."""
    before, after = entry.before or {}, entry.after or {}
    if not isinstance(before, dict) or not isinstance(after, dict):
        return [Change("(value)", _short(before), _short(after))]
    fields = sorted(set(before) | set(after))
    if before and after:
        fields = [name for name in fields if before.get(name) != after.get(name)]
    return [Change(name, _short(before.get(name)), _short(after.get(name))) for name in fields]


def _short(value, limit: int = 80) -> str:
    if value is None or value == {}:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page_of_entries(*, action: str | None = None, actor_label: str | None = None, since: date | None = None,
                    until: date | None = None, page: int = 1, per_page: int = 50) -> AuditPage:  # fmt: skip
    """Newest first, filtered by action, actor (part of the label) and day range, one page at a time."""
    statement = select(AuditEntry)
    if action:
        statement = statement.where(AuditEntry.action == action)
    if actor_label:
        statement = statement.where(AuditEntry.actor_label.ilike(f"%{actor_label}%"))
    if since:
        statement = statement.where(AuditEntry.created_at >= datetime.combine(since, time.min, UTC))
    if until:
        statement = statement.where(AuditEntry.created_at < datetime.combine(until + timedelta(days=1), time.min, UTC))
    total = db.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    pages = max(1, -(-total // per_page))
    page = min(max(1, page), pages)
    entries = db.session.scalars(statement.order_by(AuditEntry.id.desc()).limit(per_page).offset((page - 1) * per_page))
    return AuditPage(list(entries), page, pages, total)


def actions() -> list[str]:
    """Every action recorded so far, for the filter."""
    return list(db.session.scalars(select(AuditEntry.action).distinct().order_by(AuditEntry.action)))


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
