import time

import jwt
import pytest

from insightshop.routes.api.auth import REGISTRATION_MESSAGE
from insightshop.services.mail import list_outbox
from tests.api.test_products_api import assert_error
from tests.factories import bearer, make_user


def test_register_answers_202_and_sends_a_verification_email_then_the_account_logs_in(client):
    response = client.post("/api/auth/register", json={"email": "New@Example.com", "password": "correct horse battery",
                                                         "first_name": "Nia"})  # fmt: skip

    assert response.status_code == 202
    assert response.get_json() == {"ok": True, "message": REGISTRATION_MESSAGE}
    headers = bearer(client, "new@example.com")
    user = client.get("/api/auth/me", headers=headers).get_json()["user"]
    assert user["first_name"] == "Nia" and user["is_verified"] is False
    [message] = list_outbox()
    assert message.to == "new@example.com" and "/verify/" in message.body


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"email": "x@example.com"}, 400, "validation_error", "password"),
        ({"email": "nope", "password": "correct horse battery"}, 400, "validation_error", "email"),
        ({"email": "x@example.com", "password": "short"}, 400, "validation_error", "password"),
        (
            {"email": "x@example.com", "password": "correct horse battery", "is_admin": True},
            400,
            "validation_error",
            "is_admin",
        ),
    ],
)
def test_register_rejects_bad_input(client, body, status, code, field):
    assert_error(client.post("/api/auth/register", json=body), status, code, field)


def test_register_with_a_taken_email_answers_as_for_a_new_one_and_changes_nothing(client):
    make_user("taken@example.com")

    response = client.post("/api/auth/register", json={"email": "taken@example.com", "password": "another good one"})

    assert response.status_code == 202
    assert response.get_json() == {"ok": True, "message": REGISTRATION_MESSAGE}
    bearer(client, "taken@example.com")  # the old password still works
    [message] = list_outbox()
    assert message.to == "taken@example.com" and "already have an account" in message.body


def test_login_me_and_logout_revokes_the_token(client):
    make_user("sam@example.com")
    headers = bearer(client, "sam@example.com")

    assert client.get("/api/auth/me", headers=headers).get_json()["user"]["email"] == "sam@example.com"
    assert client.post("/api/auth/logout", headers=headers).get_json() == {"ok": True}
    error = assert_error(client.get("/api/auth/me", headers=headers), 401, "token_revoked")
    assert "log in" in error["message"]


def test_wrong_credentials_are_401_with_one_message(client):
    make_user("sam@example.com")

    for body in ({"email": "sam@example.com", "password": "wrong"}, {"email": "who@example.com", "password": "x"}):
        response = client.post("/api/auth/login", json=body)
        assert_error(response, 401, "unauthorized")
        assert response.get_json()["error"]["message"] == "Wrong email or password"


def test_missing_bad_expired_and_forged_tokens_are_401(app, client):
    user = make_user()
    expired = jwt.encode({"iss": "insightshop", "sub": str(user.id), "jti": "x", "iat": 1, "exp": int(time.time()) - 10},
                         app.config["SECRET_KEY"], algorithm="HS256")  # fmt: skip
    forged = jwt.encode({"iss": "insightshop", "sub": str(user.id), "jti": "x", "iat": 1, "exp": int(time.time()) + 99},
                        "a-different-key-that-is-long-enough-for-hs256", algorithm="HS256")  # fmt: skip

    response = client.get("/api/auth/me")
    assert_error(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert_error(client.get("/api/auth/me", headers={"Authorization": "Bearer garbage"}), 401, "token_invalid")
    assert_error(client.get("/api/auth/me", headers={"Authorization": f"Bearer {expired}"}), 401, "token_expired")
    assert_error(client.get("/api/auth/me", headers={"Authorization": f"Bearer {forged}"}), 401, "token_invalid")


def test_guest_token_has_no_user(client):
    response = client.post("/api/auth/guest")
    headers = {"Authorization": f"Bearer {response.get_json()['token']}"}

    assert response.status_code == 201 and response.get_json()["guest_id"]
    assert_error(client.get("/api/auth/me", headers=headers), 401, "unauthorized")
    assert client.get("/api/cart", headers=headers).status_code == 200


def test_repeated_login_failures_are_rate_limited_with_retry_after(client):
    make_user("sam@example.com")
    for _ in range(5):
        assert client.post("/api/auth/login", json={"email": "sam@example.com", "password": "wrong"}).status_code == 401

    response = client.post("/api/auth/login", json={"email": "sam@example.com", "password": "correct horse battery"})

    assert_error(response, 429, "rate_limited")
    assert int(response.headers["Retry-After"]) > 0


def test_successful_logins_do_not_count_towards_the_limit(client):
    make_user("sam@example.com")
    for _ in range(8):
        assert (
            client.post(
                "/api/auth/login", json={"email": "sam@example.com", "password": "correct horse battery"}
            ).status_code
            == 200
        )


def test_password_reset_request_answers_the_same_for_unknown_addresses(client):
    make_user("sam@example.com")

    known = client.post("/api/auth/password-reset", json={"email": "sam@example.com"})
    unknown = client.post("/api/auth/password-reset", json={"email": "nobody@example.com"})

    assert known.status_code == unknown.status_code == 202
    assert known.get_json() == unknown.get_json()
    assert [m.to for m in list_outbox()] == ["sam@example.com"]
