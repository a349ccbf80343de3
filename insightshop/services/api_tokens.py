"""Bearer tokens for API clients: signed JWTs with expiry, each recorded so logout can revoke it."""

from __future__ import annotations

import uuid
from datetime import timedelta

import jwt
from flask import current_app

from ..extensions import db
from ..models.accounts import ApiToken, User
from ..models.base import utcnow
from .actors import Actor, Unauthorized
from .rate_limits import Rule, take

ALGORITHM = "HS256"
ISSUER = "insightshop"
GUESTS_PER_CLIENT = Rule("guest-client", "GUEST_LIMIT_PER_CLIENT", "20 per hour",
                         "Too many guest sessions from this address; try again later")  # fmt: skip


def issue_token(user: User | None = None, *, guest_id: str | None = None, minutes: int | None = None,
                conversation_id: str | None = None) -> tuple[str, ApiToken]:  # fmt: skip
    """A new bearer token for a user, or for a guest (a new guest id when none is given). minutes: a short-lived
    token; conversation_id: minted for the assistant's MCP connector in that conversation (see token_conversation)."""
    if user is None and guest_id is None:
        guest_id = new_guest_id()
    hours = current_app.config["API_TOKEN_HOURS" if user else "GUEST_TOKEN_HOURS"]
    lifetime = timedelta(minutes=minutes) if minutes is not None else timedelta(hours=hours)
    now = utcnow()
    record = ApiToken(
        jti=uuid.uuid4().hex,
        user_id=user.id if user else None,
        guest_id=None if user else guest_id,
        issued_at=now,
        expires_at=now + lifetime,
    )
    db.session.add(record)
    db.session.commit()
    claims = {
        "iss": ISSUER,
        "sub": str(user.id) if user else f"guest:{guest_id}",
        "jti": record.jti,
        "iat": int(now.timestamp()),
        "exp": int(record.expires_at.timestamp()),
    }
    if conversation_id is not None:
        claims["cnv"] = conversation_id
    if user is not None:
        claims["cv"] = user.credential_version  # stale after a password change, reset, logout-all or disable
    return jwt.encode(claims, current_app.config["SECRET_KEY"], algorithm=ALGORITHM), record


def actor_for_token(token: str) -> tuple[Actor, ApiToken]:
    """The actor a bearer token stands for, or 401 when it is invalid, expired or revoked."""
    try:
        claims = jwt.decode(
            token, current_app.config["SECRET_KEY"], algorithms=[ALGORITHM], issuer=ISSUER,
            options={"require": ["exp", "iat", "sub", "jti"]},
        )  # fmt: skip
    except jwt.ExpiredSignatureError:
        raise Unauthorized("The token has expired; log in again", code="token_expired") from None
    except jwt.InvalidTokenError:
        raise Unauthorized("The token is not valid", code="token_invalid") from None
    record = db.session.get(ApiToken, claims["jti"])
    if record is None or record.revoked_at is not None or record.expires_at <= utcnow():
        raise Unauthorized("The token has been revoked; log in again", code="token_revoked")
    if record.user_id is not None:
        user = db.session.get(User, record.user_id)
        if user is None or user.is_disabled:
            raise Unauthorized("The account is not available", code="token_revoked")
        if claims.get("cv") != user.credential_version:
            raise Unauthorized("The token was revoked (password changed or logged out everywhere); log in again",
                               code="token_revoked")  # fmt: skip
        return Actor(user=user), record
    return Actor(guest_id=record.guest_id), record


def token_conversation(token: str) -> str | None:
    """The assistant conversation a connector token was minted for; None for an ordinary (or invalid) token.
    Calls made with such a token are the assistant acting for the person: consequential ones wait for Approve."""
    try:
        claims = jwt.decode(token, current_app.config["SECRET_KEY"], algorithms=[ALGORITHM], issuer=ISSUER)
    except jwt.InvalidTokenError:
        return None
    conversation = claims.get("cnv")
    return conversation if isinstance(conversation, str) else None


def issue_guest_token(client: str | None) -> tuple[str, ApiToken]:
    """A bearer token for a new anonymous guest; limited per client so guests cannot be minted in bulk."""
    take((GUESTS_PER_CLIENT, client))
    return issue_token(None)


def revoke_token(record: ApiToken) -> None:
    """Make a token stop working."""
    record.revoked_at = utcnow()
    db.session.commit()


def new_guest_id() -> str:
    return uuid.uuid4().hex
