"""Issue #26 item 13: the current password cannot be guessed without limit through the password change (a hijacked
session): checks are counted per user in the shared store; once used up, even the right one is refused (429)."""

import pytest
from werkzeug.security import check_password_hash

from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.services import accounts
from insightshop.services.rate_limits import RateLimited
from tests.factories import csrf_token, make_user

PASSWORD = "correct horse battery"
NEW_PASSWORD = "violet tugboat marmalade"


def logged_in(app, email="sam@example.com"):
    client = app.test_client()
    client.post("/login", data={"email": email, "password": PASSWORD, "csrf_token": csrf_token(client, "/login")})
    return client


def change(client, current, token):
    return client.post("/account/password", data={"current_password": current, "new_password": NEW_PASSWORD,
                                                  "confirm": NEW_PASSWORD, "csrf_token": token})  # fmt: skip


def password_is(email, password):
    db.session.expire_all()
    return check_password_hash(db.session.query(User).filter_by(email=email).one().password_hash, password)


def test_the_page_refuses_the_right_password_after_five_wrong_ones(app):
    make_user("sam@example.com")
    client = logged_in(app)
    token = csrf_token(client, "/account")

    wrong = [change(client, f"guess {n}", token).status_code for n in range(5)]
    right = change(client, PASSWORD, token)

    assert wrong == [422] * 5
    assert right.status_code == 429 and int(right.headers["Retry-After"]) > 0
    assert "Too many wrong current passwords" in right.get_data(as_text=True)
    assert password_is("sam@example.com", PASSWORD)  # unchanged
    assert client.get("/account").status_code == 200  # the session is still this one's


def test_the_limit_is_per_user_and_holds_across_sessions(app):
    make_user("sam@example.com")
    make_user("kim@example.com")
    first, second, other_user = logged_in(app), logged_in(app), logged_in(app, "kim@example.com")
    first_token, second_token = csrf_token(first, "/account"), csrf_token(second, "/account")

    statuses = [change(first, "guess", first_token).status_code for _ in range(3)]
    statuses += [change(second, "guess", second_token).status_code for _ in range(2)]
    sixth = change(second, PASSWORD, second_token)
    kim = change(other_user, PASSWORD, csrf_token(other_user, "/account"))

    assert statuses == [422] * 5 and sixth.status_code == 429
    assert kim.status_code == 302 and password_is("kim@example.com", NEW_PASSWORD)


def test_a_right_current_password_gives_its_check_back(app):
    user = make_user("sam@example.com")

    for _ in range(4):
        with pytest.raises(accounts.Invalid):
            accounts.change_password(user, "guess", NEW_PASSWORD)
    for _ in range(3):  # right current password, refused new one: not a guess
        with pytest.raises(accounts.Invalid):
            accounts.change_password(user, PASSWORD, "password")
    accounts.change_password(user, PASSWORD, NEW_PASSWORD)

    assert password_is("sam@example.com", NEW_PASSWORD)


def test_the_service_refuses_once_the_checks_are_used_up(app):
    app.config["PASSWORD_CHECK_LIMIT_PER_USER"] = "2 per hour"
    user = make_user("sam@example.com")
    for _ in range(2):
        with pytest.raises(accounts.Invalid):
            accounts.change_password(user, "guess", NEW_PASSWORD)

    with pytest.raises(RateLimited) as refused:
        accounts.change_password(user, PASSWORD, NEW_PASSWORD)

    assert refused.value.status == 429 and refused.value.details[0]["scope"] == "password-check-user"
    assert password_is("sam@example.com", PASSWORD)
