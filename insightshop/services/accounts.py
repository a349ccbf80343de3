"""Accounts: registration, credentials, email verification and password reset."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email
from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..models.accounts import User
from ..models.base import utcnow
from .actors import Unauthorized
from .errors import Conflict, ErrorCode, Invalid

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 512
VERIFY_MAX_AGE = 60 * 60 * 48
RESET_MAX_AGE = 60 * 60
PASSWORD_METHOD = "scrypt"
# Checked against when the email is unknown, so a login takes as long either way.
_UNKNOWN_USER_HASH = generate_password_hash("not-a-real-password", method=PASSWORD_METHOD)


@dataclass(frozen=True)
class TokenPurpose:
    salt: str
    max_age: int


VERIFY = TokenPurpose("insightshop-verify-email", VERIFY_MAX_AGE)
RESET = TokenPurpose("insightshop-reset-password", RESET_MAX_AGE)


def normalise_email(email: str) -> str:
    """A syntactically valid, lower-cased email address, or Invalid."""
    try:
        result = validate_email((email or "").strip(), check_deliverability=False)
    except EmailNotValidError as error:
        raise Invalid(f"email: {error}", details=[{"field": "email", "message": str(error)}]) from None
    return result.normalized.lower()


def check_password_rules(password: str, field: str = "password") -> None:
    """Reject passwords that are too short, too long, or a single repeated character."""
    problem = None
    if len(password or "") < MIN_PASSWORD_LENGTH:
        problem = f"must be at least {MIN_PASSWORD_LENGTH} characters"
    elif len(password) > MAX_PASSWORD_LENGTH:
        problem = f"must be at most {MAX_PASSWORD_LENGTH} characters"
    elif len(set(password)) < 3:
        problem = "is too easy to guess"
    if problem:
        raise Invalid(f"{field}: {problem}", details=[{"field": field, "message": f"{field} {problem}"}])


def find_user_by_email(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


def register_user(
    email: str, password: str, *, first_name: str = "", last_name: str = "", is_admin: bool = False,
    is_superadmin: bool = False, is_verified: bool = False,
) -> User:  # fmt: skip
    """Create an account; the email must be new and the password acceptable."""
    email = normalise_email(email)
    check_password_rules(password)
    if find_user_by_email(email):
        raise Conflict("An account with this email already exists", code=ErrorCode.CONFLICT,
                       details=[{"field": "email", "message": "email is already registered"}])  # fmt: skip
    user = User(
        email=email,
        password_hash=generate_password_hash(password, method=PASSWORD_METHOD),
        first_name=(first_name or "").strip()[:100],
        last_name=(last_name or "").strip()[:100],
        is_verified=is_verified,
        is_admin=is_admin or is_superadmin,
        is_superadmin=is_superadmin,
    )
    db.session.add(user)
    db.session.commit()
    return user


def authenticate(email: str, password: str) -> User:
    """The user with these credentials, or 401 with the same message whatever was wrong."""
    user = find_user_by_email(email or "")
    valid = check_password_hash(user.password_hash if user else _UNKNOWN_USER_HASH, password or "")
    if not user or not valid or user.is_disabled:
        raise Unauthorized("Wrong email or password", code=ErrorCode.UNAUTHORIZED)
    user.last_login_at = utcnow()
    db.session.commit()
    return user


def change_password(user: User, current_password: str, new_password: str) -> None:
    """Replace the password after checking the current one."""
    if not check_password_hash(user.password_hash, current_password or ""):
        raise Invalid("current_password: the current password is wrong",
                      details=[{"field": "current_password", "message": "The current password is wrong"}])  # fmt: skip
    check_password_rules(new_password, "new_password")
    user.password_hash = generate_password_hash(new_password, method=PASSWORD_METHOD)
    db.session.commit()


def make_token(user: User, purpose: TokenPurpose) -> str:
    """A signed, expiring token for one user and purpose; it dies once used (see _fingerprint)."""
    return _serializer(purpose).dumps({"uid": user.id, "fp": _fingerprint(user, purpose)})


def verify_email(token: str) -> User:
    """Mark the token's user verified."""
    user = _user_from_token(token, VERIFY)
    user.is_verified = True
    db.session.commit()
    return user


def reset_password(token: str, new_password: str) -> User:
    """Set a new password with a reset token; the token cannot be used twice."""
    user = _user_from_token(token, RESET)
    check_password_rules(new_password)
    user.password_hash = generate_password_hash(new_password, method=PASSWORD_METHOD)
    db.session.commit()
    return user


def check_reset_token(token: str) -> User:
    """The user a reset token is for, without using it."""
    return _user_from_token(token, RESET)


def _serializer(purpose: TokenPurpose) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=purpose.salt)


def _fingerprint(user: User, purpose: TokenPurpose) -> str:
    # Bound to the state the token changes, so a used token no longer matches.
    state = user.password_hash if purpose is RESET else f"{user.email}:{user.is_verified}"
    return hashlib.sha256(state.encode()).hexdigest()[:16]


def _user_from_token(token: str, purpose: TokenPurpose) -> User:
    try:
        data = _serializer(purpose).loads(token, max_age=purpose.max_age)
    except SignatureExpired:
        raise Invalid("This link has expired; ask for a new one", code="token_expired") from None
    except BadSignature:
        raise Invalid("This link is not valid", code="token_invalid") from None
    user = db.session.get(User, data.get("uid"))
    if user is None or data.get("fp") != _fingerprint(user, purpose):
        raise Invalid("This link has already been used or is no longer valid", code="token_invalid")
    return user
