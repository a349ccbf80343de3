"""Account pages: register, log in/out, account, password change, email verification, password reset."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import login_required

from ..extensions import limiter
from ..forms.accounts import ChangePasswordForm, ForgotPasswordForm, LoginForm, RegisterForm, ResetPasswordForm
from ..forms.shop import EmptyForm
from ..services import accounts, mail, orders
from ..services.errors import DomainError
from ..web.account_mail import send_password_reset, send_verification
from ..web.auth import current_actor, log_in, log_out
from ..web.forms import safe_next, show_error

auth = Blueprint("auth", __name__)


def _failed(response) -> bool:
    return response.status_code >= 400


@auth.route("/register", methods=["GET", "POST"])
@limiter.limit("10 per hour", methods=["POST"])
def register():
    form = RegisterForm()
    if form.validate_on_submit():
        try:
            user = accounts.register_user(form.email.data, form.password.data,
                                          first_name=form.first_name.data, last_name=form.last_name.data)  # fmt: skip
        except DomainError as error:
            show_error(form, error)
        else:
            log_in(user)
            send_verification(user)
            flash(f"Welcome, {user.display_name}! We sent a confirmation link to {user.email}.", "success")
            return redirect(url_for("auth.account"))
    return render_template("auth/register.html", form=form), 422 if form.is_submitted() else 200


@auth.route("/login", methods=["GET", "POST"])
@limiter.limit("5 per minute", methods=["POST"], deduct_when=_failed)
def login():
    form = LoginForm()
    if form.validate_on_submit():
        try:
            user = accounts.authenticate(form.email.data, form.password.data)
        except DomainError as error:
            form.form_errors.append(error.message)
        else:
            log_in(user, remember=form.remember.data)
            flash(f"Welcome back, {user.display_name}.", "success")
            return redirect(safe_next(request.args.get("next"), url_for("auth.account")))
    return render_template("auth/login.html", form=form), 422 if form.is_submitted() else 200


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
    if form.validate_on_submit():
        try:
            accounts.change_password(user, form.current_password.data, form.new_password.data)
        except DomainError as error:
            show_error(form, error)
        else:
            flash("Your password is changed.", "success")
            return redirect(url_for("auth.account"))
    return render_template("auth/account.html", user=user, password_form=form, action_form=EmptyForm(),
                           orders=orders.list_orders(current_actor())), 422  # fmt: skip


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
        return render_template("errors/error.html", status=400, title="Confirmation failed", message=error.message), 400
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
            accounts.reset_password(token, form.password.data)
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


@auth.get("/dev/outbox/<name>")
def outbox_message(name: str):
    _development_only()
    try:
        message = mail.read_outbox(name)
    except FileNotFoundError:
        abort(404)
    return render_template("auth/outbox_message.html", message=message)


def _development_only() -> None:
    if current_app.config["APP_ENV"] == "production" or current_app.config.get("MAIL_SERVER"):
        abort(404)
