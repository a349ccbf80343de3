"""Rate-limit counters shared by every worker and app server when there is no Redis (the database is the store)."""

from __future__ import annotations

from sqlalchemy import Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db


class RateLimitCounter(db.Model):
    """One fixed window of one limit key: `count` attempts so far, until `expires_at` (Unix seconds)."""

    __tablename__ = "rate_limit_counters"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, nullable=False)
    expires_at: Mapped[float] = mapped_column(Float, nullable=False, index=True)
