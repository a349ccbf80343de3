"""Account endpoints for API clients: register, login (JWT), logout (revoke), logout everywhere, me, guest tokens."""

from __future__ import annotations

from ...extensions import limiter
from ...schemas.shop import LOGIN_BODY, PASSWORD_RESET_REQUEST_BODY, REGISTER_BODY, user_to_dict
from ...schemas.validation import validate
from ...services import accounts, api_tokens, cart
from ...services.actors import Unauthorized
from ...web.account_mail import send_password_reset, send_registration_mail
from ...web.auth import client_address, current_actor, current_api_token, log_out
from . import api, json_body

REGISTRATION_MESSAGE = "Check your email to confirm the address, then log in with POST /api/auth/login."


@api.post("/auth/register")
@limiter.limit("10 per hour")
def register():
    body = validate(json_body(), REGISTER_BODY, what="registration")
    registration = accounts.request_registration(
        body["email"], body["password"], first_name=body.get("first_name", ""), last_name=body.get("last_name", "")
    )
    # The same answer whether the address was new or already had an account (whose owner gets a notice).
    send_registration_mail(registration)
    return {"ok": True, "message": REGISTRATION_MESSAGE}, 202


@api.post("/auth/login")
def login():
    body = validate(json_body(), LOGIN_BODY, what="login")
    guest = current_actor()  # a guest token sent along has its cart merged into the user's
    user = accounts.authenticate(body["email"], body["password"], client=client_address())
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


@api.post("/auth/logout-all")
def logout_all():
    user = current_actor().require_user()
    accounts.log_out_everywhere(user)
    if current_api_token() is None:
        log_out()  # called from the browser session: end it here too
    return {"ok": True, "message": "Every token, browser session and remember cookie of the account is revoked."}


@api.get("/auth/me")
def me():
    return {"user": user_to_dict(current_actor().require_user())}


@api.post("/auth/guest")
def guest():
    token, record = api_tokens.issue_guest_token(client_address())
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
