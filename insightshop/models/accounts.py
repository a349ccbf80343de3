"""Accounts: users, the API tokens issued to them (or to anonymous guests) and their browser login sessions."""

from __future__ import annotations

from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .base import TimestampMixin, UTCDateTime


class User(UserMixin, TimestampMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(255), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    first_name: Mapped[str] = mapped_column(String(100), default="")
    last_name: Mapped[str] = mapped_column(String(100), default="")
    is_verified: Mapped[bool] = mapped_column(default=False)
    is_admin: Mapped[bool] = mapped_column(default=False)
    is_superadmin: Mapped[bool] = mapped_column(default=False)
    is_disabled: Mapped[bool] = mapped_column(default=False)
    last_login_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Bumped on password change or reset, "log out everywhere" and disabling: every API token and browser
    # session carries the version it was issued under and stops working once it is stale.
    credential_version: Mapped[int] = mapped_column(default=1, server_default="1")
    # The browser login session this object was loaded for (set by the login manager; never stored).
    login_session_id = None

    def get_id(self) -> str:  # Flask-Login: the session and the remember cookie hold user, version and login
        return f"{self.id}:{self.credential_version}:{self.login_session_id or ''}"

    @property
    def is_active(self) -> bool:  # Flask-Login: disabled accounts cannot log in
        return not self.is_disabled

    @property
    def display_name(self) -> str:
        return " ".join(filter(None, [self.first_name, self.last_name])) or self.email.split("@")[0]

    def __repr__(self) -> str:
        return f"<User {self.id} {self.email}>"


class ApiToken(db.Model):
    """One issued bearer token (by its JWT id); logging out revokes it."""

    __tablename__ = "api_tokens"

    jti: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64), index=True)
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LoginSession(db.Model):
    """One browser login (its random id sits in the signed session and the remember cookie); logout revokes it."""

    __tablename__ = "login_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
