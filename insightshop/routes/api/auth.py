"""Account endpoints for API clients: register, login (JWT), logout (revoke), me, guest tokens."""

from __future__ import annotations

from ...extensions import limiter
from ...schemas.shop import LOGIN_BODY, PASSWORD_RESET_REQUEST_BODY, REGISTER_BODY, user_to_dict
from ...schemas.validation import validate
from ...services import accounts, api_tokens, cart
from ...services.actors import Unauthorized
from ...web.account_mail import send_password_reset, send_verification
from ...web.auth import current_actor, current_api_token
from . import api, json_body


def _failed(response) -> bool:
    return response.status_code >= 400


@api.post("/auth/register")
@limiter.limit("10 per hour")
def register():
    body = validate(json_body(), REGISTER_BODY, what="registration")
    user = accounts.register_user(
        body["email"], body["password"], first_name=body.get("first_name", ""), last_name=body.get("last_name", "")
    )
    send_verification(user)
    token, record = api_tokens.issue_token(user)
    return {"token": token, "expires_at": record.expires_at.isoformat(), "user": user_to_dict(user)}, 201


@api.post("/auth/login")
@limiter.limit("5 per minute", deduct_when=_failed)
def login():
    body = validate(json_body(), LOGIN_BODY, what="login")
    guest = current_actor()  # a guest token sent along has its cart merged into the user's
    user = accounts.authenticate(body["email"], body["password"])
    if guest.guest_id:
        cart.merge_guest_cart(guest.guest_id, user.id)
    token, record = api_tokens.issue_token(user)
    return {"token": token, "expires_at": record.expires_at.isoformat(), "user": user_to_dict(user)}


@api.post("/auth/logout")
def logout():
    record = current_api_token()
    if record is None:
        raise Unauthorized("Send the token to revoke as Authorization: Bearer <token>")
    api_tokens.revoke_token(record)
    return {"ok": True}


@api.get("/auth/me")
def me():
    return {"user": user_to_dict(current_actor().require_user())}


@api.post("/auth/guest")
def guest():
    token, record = api_tokens.issue_token(None)
    return {"token": token, "expires_at": record.expires_at.isoformat(), "guest_id": record.guest_id}, 201


@api.post("/auth/password-reset")
@limiter.limit("5 per hour")
def request_password_reset():
    body = validate(json_body(), PASSWORD_RESET_REQUEST_BODY, what="request")
    user = accounts.find_user_by_email(body["email"])
    if user is not None and not user.is_disabled:
        send_password_reset(user)
    # The same answer either way, so the endpoint cannot be used to find accounts.
    return {"ok": True, "message": "If the address has an account, a reset link is on its way."}, 202
