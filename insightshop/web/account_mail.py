"""The emails accounts receive; links are absolute URLs of this request's host."""

from __future__ import annotations

from flask import render_template, url_for

from ..models.accounts import User
from ..services import accounts
from ..services.mail import send_mail


def send_verification(user: User) -> None:
    link = url_for("auth.verify_email", token=accounts.make_token(user, accounts.VERIFY), _external=True)
    body = render_template("email/verify.txt", user=user, link=link, hours=accounts.VERIFY_MAX_AGE // 3600)
    send_mail(user.email, "Confirm your InsightShop email address", body)


def send_password_reset(user: User) -> None:
    link = url_for("auth.reset_password", token=accounts.make_token(user, accounts.RESET), _external=True)
    body = render_template("email/reset.txt", user=user, link=link, minutes=accounts.RESET_MAX_AGE // 60)
    send_mail(user.email, "Reset your InsightShop password", body)
