"""Issue #10 item 4: common and breached passwords are refused everywhere a password is set (zxcvbn), and
registration does not reveal which addresses have accounts."""

import re

import pytest

from insightshop.extensions import db
from insightshop.models.accounts import ApiToken, User
from insightshop.routes.api.auth import REGISTRATION_MESSAGE
from insightshop.services.mail import list_outbox
from tests.api.test_products_api import assert_error
from tests.factories import bearer, csrf_token, make_user

PASSWORD = "correct horse battery"
WEAK = ["password", "12345678", "qwertyuiop", "iloveyou1", "Password1", "letmein123", "aaaaaaaaaaaa", "abcdefgh1"]


@pytest.mark.parametrize("weak", WEAK)
def test_registration_refuses_common_and_breached_passwords(client, weak):
    response = client.post("/api/auth/register", json={"email": "new@example.com", "password": weak})

    error = assert_error(response, 400, "validation_error", "password")
    assert "password" in error["message"] and ("common" in error["message"] or "guess" in error["message"])
    assert db.session.query(User).count() == 0 and list_outbox() == []


def test_registration_refuses_the_email_itself_as_the_password(client):
    for password in ("new.person@example.com", "new.person"):
        response = client.post("/api/auth/register", json={"email": "new.person@example.com", "password": password})
        error = assert_error(response, 400, "validation_error", "password")
        assert "email address or name" in error["message"]


def test_the_registration_page_names_the_reason(client):
    response = client.post("/register", data={"email": "new@example.com", "password": "12345678", "confirm": "12345678",
                                              "csrf_token": csrf_token(client, "/register")})  # fmt: skip

    assert response.status_code == 422
    assert "one of the most common passwords" in response.get_data(as_text=True)


def test_a_password_change_refuses_a_common_password(app, client):
    make_user("sam@example.com")
    client.post("/login", data={"email": "sam@example.com", "password": PASSWORD,
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip

    response = client.post("/account/password", data={"current_password": PASSWORD, "new_password": "iloveyou1",
                                                      "confirm": "iloveyou1", "csrf_token": csrf_token(client, "/account")})  # fmt: skip

    assert response.status_code == 422 and "most common passwords" in response.get_data(as_text=True)
    assert bearer(app.test_client(), "sam@example.com")  # the old password still works


def test_a_reset_refuses_a_common_password(client):
    make_user("sam@example.com")
    client.post("/api/auth/password-reset", json={"email": "sam@example.com"})
    path = re.search(r"http://127\.0\.0\.1:\d+(/\S+)", list_outbox()[0].body).group(1)

    response = client.post(path, data={"password": "qwertyuiop", "confirm": "qwertyuiop",
                                       "csrf_token": csrf_token(client, path)})  # fmt: skip

    assert response.status_code == 422 and "most common passwords" in response.get_data(as_text=True)
    assert client.get(path).status_code == 200  # the link still works for a good password


def test_the_create_user_command_refuses_a_weak_password(runner):
    result = runner.invoke(args=["create-user", "--email", "admin@example.com", "--password", "password", "--admin"])

    assert result.exit_code != 0 and "most common passwords" in result.output
    assert db.session.query(User).count() == 0


def test_registering_a_taken_address_answers_exactly_as_for_a_new_one(client):
    make_user("taken@example.com")

    taken = client.post("/api/auth/register", json={"email": "Taken@Example.com", "password": "another good one here"})
    new = client.post("/api/auth/register", json={"email": "fresh@example.com", "password": "another good one here"})

    assert (taken.status_code, taken.get_json()) == (new.status_code, new.get_json()) == (202, {
        "ok": True, "message": REGISTRATION_MESSAGE})  # fmt: skip
    assert "token" not in taken.get_data(as_text=True)
    assert db.session.query(User).count() == 2
    assert db.session.query(ApiToken).count() == 0
    notice, verification = sorted(list_outbox(), key=lambda m: m.to)[::-1]
    assert notice.to == "taken@example.com" and "already have an account" in notice.body
    assert "/reset-password" not in notice.body and "/forgot-password" in notice.body
    assert verification.to == "fresh@example.com" and "/verify/" in verification.body


def test_registering_a_taken_address_changes_nothing_about_the_account(app, client):
    sam = make_user("sam@example.com", first_name="Sam")
    before = (sam.password_hash, sam.first_name, sam.credential_version)

    client.post("/api/auth/register", json={"email": "sam@example.com", "password": "attacker chosen words",
                                            "first_name": "Mallory"})  # fmt: skip

    db.session.expire_all()
    sam = db.session.get(User, sam.id)
    assert (sam.password_hash, sam.first_name, sam.credential_version) == before
    assert_error(
        app.test_client().post(
            "/api/auth/login", json={"email": "sam@example.com", "password": "attacker chosen words"}
        ),
        401,
        "unauthorized",
    )


def test_the_registration_page_signs_in_only_a_new_account_and_leaves_a_taken_one_alone(client):
    """Issue 29: the page signs a new shopper in (so it tells a visitor that an address was free; the API's sign-up
    still answers the same for both). A taken address signs nobody in and its account is not touched."""
    owner = make_user("taken@example.com")
    before = owner.password_hash

    def register(email):
        return client.post("/register", data={"email": email, "password": PASSWORD, "confirm": PASSWORD,
                                              "csrf_token": csrf_token(client, "/register")})  # fmt: skip

    taken = register("taken@example.com")
    assert taken.status_code == 302 and taken.location.endswith("/login")
    assert client.get("/account").status_code == 302  # nobody signed in
    db.session.expire_all()
    assert db.session.get(User, owner.id).password_hash == before
    new = register("new@example.com")
    assert new.status_code == 302 and new.location.endswith("/account")
    assert client.get("/account").status_code == 200
