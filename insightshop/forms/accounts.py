"""Account forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, StringField
from wtforms.validators import DataRequired, Email, EqualTo, Length

from ..services.accounts import MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH

NEW_PASSWORD = [DataRequired(), Length(min=MIN_PASSWORD_LENGTH, max=MAX_PASSWORD_LENGTH)]


class RegisterForm(FlaskForm):
    first_name = StringField("First name", validators=[Length(max=100)])
    last_name = StringField("Last name", validators=[Length(max=100)])
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=255)])
    password = PasswordField("Password", validators=NEW_PASSWORD)
    confirm = PasswordField("Repeat password", validators=[DataRequired(), EqualTo("password", "Passwords differ")])


class LoginForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=255)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=MAX_PASSWORD_LENGTH)])
    remember = BooleanField("Keep me logged in")


class ChangePasswordForm(FlaskForm):
    current_password = PasswordField("Current password", validators=[DataRequired()])
    new_password = PasswordField("New password", validators=NEW_PASSWORD)
    confirm = PasswordField(
        "Repeat new password", validators=[DataRequired(), EqualTo("new_password", "Passwords differ")]
    )


class ForgotPasswordForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=255)])


class ResetPasswordForm(FlaskForm):
    password = PasswordField("New password", validators=NEW_PASSWORD)
    confirm = PasswordField("Repeat new password", validators=[DataRequired(), EqualTo("password", "Passwords differ")])
