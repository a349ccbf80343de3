"""The emails accounts receive. Every link is built from PUBLIC_BASE_URL, never from the request's Host header
(which an attacker chooses), so a mailed link always points at the real shop."""

from __future__ import annotations

from flask import current_app, render_template, url_for

from ..models.accounts import User
from ..services import accounts
from ..services.mail import send_mail


def public_url(endpoint: str, **values) -> str:
    """An absolute URL of the shop for mail: the configured public base URL plus the endpoint's path."""
    return current_app.config["PUBLIC_BASE_URL"] + url_for(endpoint, **values)


def send_verification(user: User) -> None:
    link = public_url("auth.verify_email", token=accounts.make_token(user, accounts.VERIFY))
    body = render_template("email/verify.txt", user=user, link=link, hours=accounts.VERIFY_MAX_AGE // 3600)
    send_mail(user.email, "Confirm your InsightShop email address", body)


def send_password_reset(user: User) -> None:
    link = public_url("auth.reset_password", token=accounts.make_token(user, accounts.RESET))
    body = render_template("email/reset.txt", user=user, link=link, minutes=accounts.RESET_MAX_AGE // 60)
    send_mail(user.email, "Reset your InsightShop password", body)


def send_existing_account_notice(user: User) -> None:
    """Someone signed up with an address that has an account: tell its owner instead of saying so to the caller."""
    body = render_template("email/existing_account.txt", user=user, login_link=public_url("auth.login"),
                           reset_link=public_url("auth.forgot_password"))  # fmt: skip
    send_mail(user.email, "Someone tried to create an InsightShop account with your address", body)


def send_registration_mail(registration: accounts.Registration) -> None:
    """The one message a sign-up sends: a confirmation link for a new account, a notice for an existing one."""
    if registration.created is not None:
        send_verification(registration.created)
    elif registration.existing is not None and not registration.existing.is_disabled:
        send_existing_account_notice(registration.existing)
