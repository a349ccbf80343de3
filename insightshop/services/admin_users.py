"""Admin user management: search, roles (superadmins only), disabling, password resets."""

from __future__ import annotations

from sqlalchemy import func, or_, select

from ..extensions import db
from ..models.accounts import ApiToken, User
from ..models.base import utcnow
from . import accounts, audit
from .actors import Actor
from .errors import Conflict, Forbidden, NotFound


def list_users(search: str = "", *, limit: int = 50, offset: int = 0) -> list[User]:
    statement = select(User).order_by(User.id.desc())
    if search:
        pattern = f"%{search.strip()}%"
        statement = statement.where(
            or_(User.email.ilike(pattern), User.first_name.ilike(pattern), User.last_name.ilike(pattern))
        )
    return list(db.session.scalars(statement.limit(limit).offset(offset)))


def get_user(user_id: int) -> User:
    user = db.session.get(User, user_id)
    if user is None:
        raise NotFound(f"User {user_id} does not exist")
    return user


def set_role(actor: Actor, user_id: int, *, admin: bool, superadmin: bool = False) -> User:
    """Grant or revoke admin rights; only a superadmin may, and the last superadmin stays one."""
    if actor.user is None or not actor.user.is_superadmin:
        raise Forbidden("Only a superadmin can change roles")
    user = get_user(user_id)
    before = {"is_admin": user.is_admin, "is_superadmin": user.is_superadmin}
    if user.is_superadmin and not superadmin and _superadmin_count() <= 1:
        raise Conflict("The last superadmin cannot be demoted", code="last_superadmin")
    user.is_superadmin = superadmin
    user.is_admin = admin or superadmin
    audit.record(actor, "user.role", "user", user.id, before=before,
                 after={"is_admin": user.is_admin, "is_superadmin": user.is_superadmin})  # fmt: skip
    db.session.commit()
    return user


def check_may_manage(actor: Actor, user: User) -> None:
    """Admin and superadmin accounts are changed (disabled, enabled, sent resets) by superadmins only."""
    if (user.is_admin or user.is_superadmin) and (actor.user is None or not actor.user.is_superadmin):
        raise Forbidden("Only a superadmin can change an admin's account")


def set_disabled(actor: Actor, user_id: int, disabled: bool) -> User:
    """Disable (or re-enable) an account; disabling also ends its API tokens, sessions and remember cookies."""
    user = get_user(user_id)
    check_may_manage(actor, user)
    if disabled and user.id == actor.user.id:
        raise Conflict("You cannot disable your own account", code="conflict")
    if disabled and user.is_superadmin and _superadmin_count() <= 1:
        raise Conflict("The last superadmin cannot be disabled", code="last_superadmin")
    before = {"is_disabled": user.is_disabled}
    user.is_disabled = disabled
    if disabled:
        db.session.query(ApiToken).filter(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None)).update(
            {"revoked_at": utcnow()}, synchronize_session=False
        )
        accounts.bump_credential_version(user)
    audit.record(actor, "user.disable" if disabled else "user.enable", "user", user.id, before=before,
                 after={"is_disabled": disabled})  # fmt: skip
    db.session.commit()
    return user


def _superadmin_count() -> int:
    return (
        db.session.scalar(select(func.count()).select_from(User).where(User.is_superadmin, User.is_disabled.is_(False)))
        or 0
    )


def user_for_reset(actor: Actor, user_id: int) -> User:
    """The user an admin may send a password reset link to (an admin's account: superadmins only)."""
    user = get_user(user_id)
    check_may_manage(actor, user)
    return user


def record_reset_sent(actor: Actor, user: User) -> None:
    """Note in the audit log that an admin sent a user a password reset link (call check_may_manage first)."""
    check_may_manage(actor, user)
    audit.record(actor, "user.password_reset", "user", user.id)
    db.session.commit()
