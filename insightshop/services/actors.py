"""Who is acting: a signed-in user, an anonymous guest, or nobody. Services take it explicitly."""

from __future__ import annotations

from dataclasses import dataclass

from ..models.accounts import User
from .errors import DomainError, ErrorCode


class Unauthorized(DomainError):
    status = 401
    default_code = ErrorCode.UNAUTHORIZED


@dataclass(frozen=True)
class Actor:
    user: User | None = None
    guest_id: str | None = None

    @property
    def is_authenticated(self) -> bool:
        return self.user is not None

    @property
    def is_admin(self) -> bool:
        return self.user is not None and (self.user.is_admin or self.user.is_superadmin)

    @property
    def has_owner(self) -> bool:
        return self.user is not None or self.guest_id is not None

    @property
    def role(self) -> str:
        return "admin" if self.is_admin else "user"

    def require_user(self) -> User:
        """The signed-in user, or 401."""
        if self.user is None:
            raise Unauthorized("Log in to do that")
        return self.user

    def require_owner(self) -> None:
        """A user or a guest with an identity (a cart needs an owner), or 401."""
        if not self.has_owner:
            raise Unauthorized("Log in or start a guest session (POST /api/auth/guest) first")


ANONYMOUS = Actor()
