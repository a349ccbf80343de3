"""Column helpers shared by every model: UTC timestamps and money."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import DateTime, Numeric, TypeDecorator
from sqlalchemy.orm import Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every backend (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime given; use insightshop.models.base.utcnow()")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        # PostgreSQL's driver returns its own fixed-offset zone: normalise to datetime.UTC, as values are written.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


Money = Numeric(10, 2, asdecimal=True)


class TimestampMixin:
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow, nullable=False)


__all__ = ["Decimal", "Money", "TimestampMixin", "UTCDateTime", "utcnow"]
