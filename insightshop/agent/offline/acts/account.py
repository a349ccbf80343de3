"""Signing in and out, as the classifier reads it ("log me in", "sign me out", "how do I create an account"). A
password never goes through the chat: signing in shows the login form, an account to make is the Register page."""

from __future__ import annotations

from ..intent import one_call
from ..rules import Interpretation
from . import act
from .service_words import has

SIGN_IN = "Please use the login form below — never type your password into the chat."
REGISTER = "You can create an account on the Register page — never type a password into the chat."


@act("account_login")
def sign_in(request, _guess) -> Interpretation:
    context = {k: v for k, v in request.context.items() if k != "pending"}
    if has(request.plain, "signup"):
        return Interpretation(reply=REGISTER, context=context)
    return Interpretation(reply=SIGN_IN, wants_login_form=True, context=context)


@act("account_logout")
def sign_out(request, _guess) -> Interpretation:
    return one_call(request, "auth_logout", {})
