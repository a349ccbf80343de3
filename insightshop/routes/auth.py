"""Account pages: register, log in/out, account, password change, email verification, password reset."""

from __future__ import annotations

import ipaddress

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import login_required

from ..extensions import limiter
from ..forms.accounts import ChangePasswordForm, ForgotPasswordForm, LoginForm, RegisterForm, ResetPasswordForm
from ..forms.shop import EmptyForm
from ..services import accounts, mail, orders
from ..services.errors import DomainError
from ..services.rate_limits import RateLimited
from ..web.account_mail import send_password_reset, send_registration_mail, send_verification
from ..web.auth import client_address, current_actor, log_in, log_out
from ..web.forms import safe_next, show_error

auth = Blueprint("auth", __name__)
KNOWN_DEVICE_COOKIE = "insightshop_device"


@auth.route("/register", methods=["GET", "POST"])
@limiter.limit("10 per hour", methods=["POST"])
def register():
    form = RegisterForm()
    if form.validate_on_submit():
        try:
            registration = accounts.request_registration(form.email.data, form.password.data,
                                                         first_name=form.first_name.data,
                                                         last_name=form.last_name.data)  # fmt: skip
        except DomainError as error:
            show_error(form, error)
        else:
            send_registration_mail(registration)
            if registration.created is not None:  # a new account: signed in at once, the address still to confirm
                log_in(registration.created)
                flash(f"Welcome, {registration.created.display_name} — your account is ready and you're signed in. "
                      f"Confirm your email address with the link we sent to {registration.created.email}.",
                      "success")  # fmt: skip
                return redirect(safe_next(request.args.get("next"), url_for("auth.account")))
            # an address that already has an account: its owner gets a notice, nobody is signed in
            flash(f"Check your email: we sent a message to {form.email.data.strip()}. If you already have an "
                  "account, log in or reset your password from there.", "success")  # fmt: skip
            return redirect(url_for("auth.login"))
    return render_template("auth/register.html", form=form), 422 if form.is_submitted() else 200


@auth.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        try:
            user = accounts.authenticate(form.email.data, form.password.data, client=client_address(),
                                         known_device=request.cookies.get(KNOWN_DEVICE_COOKIE))  # fmt: skip
        except RateLimited as error:
            form.form_errors.append(error.message)
            return render_template("auth/login.html", form=form), 429, {"Retry-After": str(error.retry_after)}
        except DomainError as error:
            form.form_errors.append(error.message)
        else:
            log_in(user, remember=form.remember.data)
            flash(f"Welcome back, {user.display_name}.", "success")
            response = redirect(safe_next(request.args.get("next"), url_for("auth.account")))
            _remember_device(response, user)
            return response
    return render_template("auth/login.html", form=form), 422 if form.is_submitted() else 200


def _remember_device(response, user) -> None:
    # This browser may log in to the account past its account-wide ceiling from now on (services/accounts.py).
    config = current_app.config
    response.set_cookie(KNOWN_DEVICE_COOKIE, accounts.known_device_token(user), max_age=accounts.KNOWN_DEVICE_MAX_AGE,
                        httponly=True, secure=config["SESSION_COOKIE_SECURE"], samesite="Lax")  # fmt: skip


@auth.post("/logout")
def logout():
    if EmptyForm().validate_on_submit():
        log_out()
        flash("You are logged out.", "info")
    return redirect(url_for("shop.show_home"))


@auth.get("/account")
@login_required
def account():
    return render_template("auth/account.html", user=current_actor().user, password_form=ChangePasswordForm(),
                           action_form=EmptyForm(), orders=orders.list_orders(current_actor()))  # fmt: skip


@auth.post("/account/password")
@login_required
def change_password():
    form = ChangePasswordForm()
    user = current_actor().user
    status, headers = 422, {}
    if form.validate_on_submit():
        try:
            accounts.change_password(user, form.current_password.data, form.new_password.data)
        except RateLimited as error:
            form.form_errors.append(error.message)
            status, headers = 429, {"Retry-After": str(error.retry_after)}
        except DomainError as error:
            show_error(form, error)
        else:
            log_in(user)  # every other session, cookie and token is logged out; this browser starts afresh
            flash("Your password is changed. Every other device and app is logged out.", "success")
            return redirect(url_for("auth.account"))
    return render_template("auth/account.html", user=user, password_form=form, action_form=EmptyForm(),
                           orders=orders.list_orders(current_actor())), status, headers  # fmt: skip


@auth.post("/account/logout-all")
@login_required
def logout_everywhere():
    if EmptyForm().validate_on_submit():
        accounts.log_out_everywhere(current_actor().user)
        log_out()
        flash("You are logged out everywhere: every browser, device and app token.", "info")
        return redirect(url_for("auth.login"))
    return redirect(url_for("auth.account"))


@auth.post("/account/verify")
@login_required
@limiter.limit("5 per hour")
def resend_verification():
    user = current_actor().user
    if EmptyForm().validate_on_submit() and not user.is_verified:
        send_verification(user)
        flash(f"We sent a new confirmation link to {user.email}.", "info")
    return redirect(url_for("auth.account"))


@auth.get("/verify/<token>")
def verify_email(token: str):
    try:
        user = accounts.verify_email(token)
    except DomainError as error:
        return render_template("errors/error.html", status=400, title="This confirmation link does not work",
                               message=f"{error.message} — your account page can send a new one.",
                               next_url=url_for("auth.account"), next_label="Go to your account"), 400  # fmt: skip
    flash(f"Thanks — {user.email} is confirmed.", "success")
    return redirect(url_for("auth.account") if current_actor().user else url_for("auth.login"))


@auth.route("/forgot-password", methods=["GET", "POST"])
@limiter.limit("5 per hour", methods=["POST"])
def forgot_password():
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        user = accounts.find_user_by_email(form.email.data)
        if user is not None and not user.is_disabled:
            send_password_reset(user)
        flash("If the address has an account, a reset link is on its way.", "info")
        return redirect(url_for("auth.login"))
    return render_template("auth/forgot.html", form=form), 422 if form.is_submitted() else 200


@auth.route("/reset-password/<token>", methods=["GET", "POST"])
def reset_password(token: str):
    try:
        accounts.check_reset_token(token)
    except DomainError as error:
        return render_template(
            "errors/error.html", status=400, title="Reset link not valid", message=error.message
        ), 400
    form = ResetPasswordForm()
    if form.validate_on_submit():
        try:
            accounts.reset_password(token, form.password.data, client=client_address())
        except DomainError as error:
            show_error(form, error, aliases={"password": "password"})
        else:
            flash("Your password is changed; log in with the new one.", "success")
            return redirect(url_for("auth.login"))
    return render_template("auth/reset.html", form=form), 422 if form.is_submitted() else 200


@auth.get("/dev/outbox")
def outbox():
    _development_only()
    return render_template("auth/outbox.html", messages=mail.list_outbox())


@auth.get("/dev/outbox/<path:name>")
def outbox_message(name: str):
    _development_only()
    message = mail.read_outbox(name)
    if message is None:
        abort(404)
    return render_template("auth/outbox_message.html", message=message)


def _development_only() -> None:
    # The outbox holds reset and confirmation links: only the developer's own machine may read it.
    config = current_app.config
    if config["APP_ENV"] not in ("development", "testing") or config.get("MAIL_SERVER") or not _loopback():
        abort(404)


def _loopback() -> bool:
    try:
        return ipaddress.ip_address((request.remote_addr or "").split("%")[0]).is_loopback
    except ValueError:
        return False
