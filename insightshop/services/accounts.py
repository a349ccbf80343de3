"""Accounts: registration, credentials, login limits, credential versions, email verification and password reset."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email
from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash
from zxcvbn import zxcvbn

from ..extensions import db
from ..models.accounts import LoginSession, User
from ..models.base import utcnow
from .actors import Actor, Unauthorized
from .errors import Conflict, ErrorCode, Invalid
from .rate_limits import Rule, reset, take

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 512
VERIFY_MAX_AGE = 60 * 60 * 48
RESET_MAX_AGE = 60 * 60
# Per hashing method (config PASSWORD_HASH_METHOD): a hash checked against when the email is unknown, so a login
# takes as long either way.
_UNKNOWN_USER_HASHES: dict[str, str] = {}
# zxcvbn's cost grows with the length; a long password is strong for its length alone, so only its start is rated.
STRENGTH_CHECKED_CHARS = 64
MIN_STRENGTH_SCORE = 2  # zxcvbn 0-4: 0-1 fall to an online or throttled guessing attack in hours

# Every door that checks a password (the page, the JSON API, the auth_login tool via API, MCP and chat)
# counts against these, before the password is checked; a successful login hands its units back. The short limit
# is per account *and* client, so guesses from elsewhere cannot lock the owner out; the slow per-account ceiling
# still caps guessing spread over many addresses. So that the ceiling cannot lock the owner out (anyone can fill it
# in ten minutes from one address), a browser that has logged in to the account before (a signed known-device
# cookie, see known_device_token) is not held by the ceiling, only by the short limits; and a completed password
# reset clears the account's counters.
LOGIN_PER_ACCOUNT = Rule("login-account-client", "LOGIN_LIMIT_PER_ACCOUNT", "5 per minute",
                         "Too many failed logins for this account; wait a minute and try again")  # fmt: skip
LOGIN_ACCOUNT_CEILING = Rule("login-account", "LOGIN_LIMIT_ACCOUNT_CEILING", "50 per hour",
                             "Too many failed logins for this account; try again later")  # fmt: skip
LOGIN_PER_CLIENT = Rule("login-client", "LOGIN_LIMIT_PER_CLIENT", "5 per minute",
                        "Too many failed logins from this address; wait a minute and try again")  # fmt: skip
# Checking the current password (changing it) with a session someone may have taken over: per user.
PASSWORD_CHECKS_PER_USER = Rule("password-check-user", "PASSWORD_CHECK_LIMIT_PER_USER", "5 per 15 minutes",
                                "Too many wrong current passwords; try again later")  # fmt: skip


@dataclass(frozen=True)
class TokenPurpose:
    salt: str
    max_age: int


VERIFY = TokenPurpose("insightshop-verify-email", VERIFY_MAX_AGE)
RESET = TokenPurpose("insightshop-reset-password", RESET_MAX_AGE)
KNOWN_DEVICE_MAX_AGE = 60 * 60 * 24 * 365
KNOWN_DEVICE = TokenPurpose("insightshop-known-device", KNOWN_DEVICE_MAX_AGE)


def normalise_email(email: str) -> str:
    """A syntactically valid, lower-cased email address, or Invalid."""
    try:
        result = validate_email((email or "").strip(), check_deliverability=False)
    except EmailNotValidError as error:
        raise Invalid(f"email: {error}", details=[{"field": "email", "message": str(error)}]) from None
    return result.normalized.lower()


def _hash_password(password: str) -> str:
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def _unknown_user_hash() -> str:
    method = current_app.config["PASSWORD_HASH_METHOD"]
    if method not in _UNKNOWN_USER_HASHES:
        _UNKNOWN_USER_HASHES[method] = generate_password_hash("not-a-real-password", method=method)
    return _UNKNOWN_USER_HASHES[method]


def check_password_rules(password: str, field: str = "password", *, user_inputs: tuple[str, ...] = ()) -> None:
    """Reject passwords that are too short or long, common, found in breached-password lists, or built from
    the user's own details (the email address, names), saying why."""
    problem = None
    if len(password or "") < MIN_PASSWORD_LENGTH:
        problem = f"must be at least {MIN_PASSWORD_LENGTH} characters"
    elif len(password) > MAX_PASSWORD_LENGTH:
        problem = f"must be at most {MAX_PASSWORD_LENGTH} characters"
    else:
        problem = _weakness(password, user_inputs)
    if problem:
        raise Invalid(f"{field}: {problem}", details=[{"field": field, "message": f"{field} {problem}"}])


def _weakness(password: str, user_inputs: tuple[str, ...]) -> str | None:
    inputs = [part for value in user_inputs if value for part in _input_words(value)]
    result = zxcvbn(password[:STRENGTH_CHECKED_CHARS], user_inputs=inputs)
    for match in result["sequence"]:
        if match["pattern"] == "dictionary" and len(match["token"]) >= len(password) - 1:
            if match.get("dictionary_name") == "user_inputs":
                return "is too close to your email address or name"
            if match.get("dictionary_name") == "passwords":
                return "is one of the most common passwords (found in breached-password lists)"
            return "is a single common word"
    if result["score"] < MIN_STRENGTH_SCORE:
        hint = (result["feedback"].get("warning") or "").rstrip(".")
        return f"is too easy to guess{f' ({hint.lower()})' if hint else ''}; add a few more uncommon words"
    return None


def _input_words(value: str) -> list[str]:
    value = value.strip().lower()
    local = value.split("@")[0]
    return [value, local, *[word for word in local.replace("_", ".").replace("-", ".").split(".") if len(word) > 2]]


def find_user_by_email(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


@dataclass(frozen=True)
class Registration:
    """What a sign-up did: `created` a new account, or found the address's `existing` one (whose owner is told)."""

    created: User | None = None
    existing: User | None = None


def request_registration(email: str, password: str, *, first_name: str = "", last_name: str = "") -> Registration:
    """Sign up without telling the caller whether the address already has an account: a new address gets an
    account, a known one is left untouched (the caller mails its owner instead). Both take as long."""
    email = normalise_email(email)
    check_password_rules(password, user_inputs=(email, first_name, last_name))
    existing = find_user_by_email(email)
    if existing is not None:
        _hash_password(password)  # the same work as creating one
        return Registration(existing=existing)
    try:
        return Registration(created=register_user(email, password, first_name=first_name, last_name=last_name))
    except Conflict:  # registered concurrently
        db.session.rollback()
        return Registration(existing=find_user_by_email(email))


def register_user(
    email: str, password: str, *, first_name: str = "", last_name: str = "", is_admin: bool = False,
    is_superadmin: bool = False, is_verified: bool = False,
) -> User:  # fmt: skip
    """Create an account; the email must be new and the password acceptable (the CLI and tests; sign-ups
    from the public go through request_registration, which does not reveal existing accounts)."""
    email = normalise_email(email)
    check_password_rules(password, user_inputs=(email, first_name, last_name))
    if find_user_by_email(email):
        raise Conflict("An account with this email already exists", code=ErrorCode.CONFLICT,
                       details=[{"field": "email", "message": "email is already registered"}])  # fmt: skip
    user = User(
        email=email,
        password_hash=_hash_password(password),
        first_name=(first_name or "").strip()[:100],
        last_name=(last_name or "").strip()[:100],
        is_verified=is_verified,
        is_admin=is_admin or is_superadmin,
        is_superadmin=is_superadmin,
    )
    db.session.add(user)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict("An account with this email already exists", code=ErrorCode.CONFLICT) from None
    return user


def authenticate(email: str, password: str, *, client: str | None = None, known_device: str | None = None) -> User:
    """The user with these credentials, or 401 with the same message whatever was wrong.

    Every attempt is counted per account and client, per client, and against the account's slower ceiling before
    the password is looked at (429 once any is used up, even for the right password); a successful login gives its
    attempt back. `known_device` (a browser's known-device cookie for this very account) spares the attempt the
    account-wide ceiling, never the per account+client and per-client limits."""
    account = login_key(email)
    ceiling = None if known_device and _known_device_account(known_device) == account else account
    reservation = take((LOGIN_PER_ACCOUNT, f"{account}|{client or '-'}"), (LOGIN_ACCOUNT_CEILING, ceiling),
                       (LOGIN_PER_CLIENT, client))  # fmt: skip
    user = find_user_by_email(email or "")
    valid = check_password_hash(user.password_hash if user else _unknown_user_hash(), password or "")
    if not user or not valid or user.is_disabled:
        raise Unauthorized("Wrong email or password", code=ErrorCode.UNAUTHORIZED)
    reservation.refund()
    user.last_login_at = utcnow()
    db.session.commit()
    return user


def known_device_token(user: User) -> str:
    """A signed token naming the account, for the cookie of a browser that has just logged in to it."""
    return _serializer(KNOWN_DEVICE).dumps({"uid": user.id, "account": login_key(user.email)})


def _known_device_account(token: str) -> str | None:
    try:
        data = _serializer(KNOWN_DEVICE).loads(token, max_age=KNOWN_DEVICE.max_age)
    except BadSignature:  # SignatureExpired included
        return None
    return data.get("account") if isinstance(data, dict) else None


def clear_login_limits(user: User, client: str | None = None) -> None:
    """Forget the account's ceiling (and this client's per-account counter): the owner has proved control."""
    account = login_key(user.email)
    reset(LOGIN_ACCOUNT_CEILING, account)
    reset(LOGIN_PER_ACCOUNT, f"{account}|{client or '-'}")


def login_key(email: str) -> str:
    """The per-account counter key: the normalised address (or the raw text when it is not one)."""
    try:
        return normalise_email(email)
    except Invalid:
        return (email or "").strip().lower() or "-"


def change_password(user: User, current_password: str, new_password: str) -> None:
    """Replace the password after checking the current one; every other token and session stops working.

    Checks of the current password are limited per user (429 once used up, even for the right one); a right one
    gives its attempt back."""
    reservation = take((PASSWORD_CHECKS_PER_USER, f"user:{user.id}"))
    if not check_password_hash(user.password_hash, current_password or ""):
        raise Invalid("current_password: the current password is wrong",
                      details=[{"field": "current_password", "message": "The current password is wrong"}])  # fmt: skip
    reservation.refund()
    check_password_rules(new_password, "new_password", user_inputs=(user.email, user.first_name, user.last_name))
    user.password_hash = _hash_password(new_password)
    bump_credential_version(user)
    db.session.commit()


def log_out_everywhere(user: User) -> None:
    """End every API token, browser session and remember cookie of the user."""
    bump_credential_version(user)
    db.session.commit()


def bump_credential_version(user: User) -> None:
    """Make every credential issued so far stale (the caller commits); browser sessions are revoked too."""
    db.session.execute(update(User).where(User.id == user.id).values(credential_version=User.credential_version + 1))
    db.session.execute(
        update(LoginSession)
        .where(LoginSession.user_id == user.id, LoginSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    db.session.refresh(user, ["credential_version"])


def start_login_session(user: User) -> str:
    """Record a new browser login; its id goes into the signed session and the remember cookie."""
    record = LoginSession(id=secrets.token_urlsafe(32), user_id=user.id, created_at=utcnow())
    db.session.add(record)
    db.session.commit()
    return record.id


def end_login_session(session_id: str | None) -> None:
    """Revoke one browser login (logout): a copy of its session or remember cookie no longer gets in."""
    if session_id:
        db.session.execute(
            update(LoginSession)
            .where(LoginSession.id == session_id, LoginSession.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
        db.session.commit()


def end_current_login_session(actor: Actor) -> bool:
    """Revoke the browser login the actor is signed in with (logout by chat, or any door that knows the actor);
    True when there was one. The caller's route still ends the flask-login session itself."""
    session_id = getattr(actor.user, "login_session_id", None) if actor.user is not None else None
    if not session_id:
        return False
    end_login_session(session_id)
    return True


def user_for_login_session(user_id: int, version: int, session_id: str) -> User | None:
    """The user of a live browser login whose credential version is current, else None (one indexed lookup)."""
    row = db.session.execute(
        select(User)
        .join(LoginSession, LoginSession.user_id == User.id)
        .where(LoginSession.id == session_id, LoginSession.revoked_at.is_(None), User.id == user_id)
    ).scalar_one_or_none()
    if row is None or row.is_disabled or row.credential_version != version:
        return None
    row.login_session_id = session_id
    return row


def make_token(user: User, purpose: TokenPurpose) -> str:
    """A signed, expiring token for one user and purpose; it dies once used (see _fingerprint)."""
    return _serializer(purpose).dumps({"uid": user.id, "fp": _fingerprint(user, purpose)})


def verify_email(token: str) -> User:
    """Mark the token's user verified; opening the same link again later simply confirms it again."""
    try:
        user = _user_from_token(token, VERIFY)
    except Invalid:
        user = _already_verified_by(token)
        if user is None:
            raise
        return user
    user.is_verified = True
    db.session.commit()
    return user


def _already_verified_by(token: str) -> User | None:
    """The user a still-valid verification link was issued to, when that address has been confirmed since."""
    try:
        data = _serializer(VERIFY).loads(token, max_age=VERIFY.max_age)
    except BadSignature:  # SignatureExpired included
        return None
    user = db.session.get(User, data.get("uid"))
    issued_for = hashlib.sha256(f"{user.email}:False".encode()).hexdigest()[:16] if user else None
    return user if user is not None and user.is_verified and data.get("fp") == issued_for else None


def reset_password(token: str, new_password: str, *, client: str | None = None) -> User:
    """Set a new password with a reset token; the token cannot be used twice. The account's login counters are
    cleared (whoever filled them, the owner can log in with the new password at once)."""
    user = _user_from_token(token, RESET)
    check_password_rules(new_password, user_inputs=(user.email, user.first_name, user.last_name))
    user.password_hash = _hash_password(new_password)
    bump_credential_version(user)
    db.session.commit()
    clear_login_limits(user, client)
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
