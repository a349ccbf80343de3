import re

from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.services.mail import list_outbox
from tests.factories import csrf_token, make_product, make_user


def post_form(client, path, data, page=None):
    return client.post(path, data={**data, "csrf_token": csrf_token(client, page or path)})


def link_in_latest_email() -> str:
    return re.search(r"http://127\.0\.0\.1:\d+(/\S+)", list_outbox()[0].body).group(1)


def test_register_signs_the_shopper_in_and_the_link_confirms_the_address(client):
    response = post_form(client, "/register", {"first_name": "Nia", "last_name": "Obi", "email": "nia@example.com",
                                               "password": "correct horse battery", "confirm": "correct horse battery"})  # fmt: skip

    assert response.status_code == 302 and response.location.endswith("/account")
    account = client.get("/account").get_data(as_text=True)
    assert "Hello, Nia Obi" in account and "you&#39;re signed in" in account and "Email confirmed" not in account
    assert client.get(link_in_latest_email()).status_code == 302
    assert "Email confirmed" in client.get("/account").get_data(as_text=True)
    assert db.session.query(User).one().is_verified


def test_registering_a_taken_address_signs_nobody_in(client):
    make_user("taken@example.com")
    response = post_form(client, "/register", {"email": "taken@example.com", "password": "correct horse battery",
                                               "confirm": "correct horse battery"})  # fmt: skip
    assert response.location.endswith("/login")
    assert "If you already have an account" in client.get("/login").get_data(as_text=True)
    assert client.get("/account").status_code == 302


def test_register_form_shows_errors_and_changes_nothing(client):
    make_user("taken@example.com")

    mismatch = post_form(
        client, "/register", {"email": "a@example.com", "password": "correct horse battery", "confirm": "different one"}
    )
    weak = post_form(client, "/register", {"email": "b@example.com", "password": "password1", "confirm": "password1"})

    assert mismatch.status_code == 422 and "Passwords differ" in mismatch.get_data(as_text=True)
    assert weak.status_code == 422 and "most common passwords" in weak.get_data(as_text=True)
    assert db.session.query(User).count() == 1


def test_forms_without_the_csrf_token_are_refused(client):
    response = client.post("/register", data={"email": "a@example.com", "password": "correct horse battery",
                                              "confirm": "correct horse battery"})  # fmt: skip

    assert response.status_code == 400
    assert "Your session expired" in response.get_data(as_text=True)
    assert db.session.query(User).count() == 0


def test_login_failure_login_success_and_logout(client):
    make_user("sam@example.com", first_name="Sam")

    failed = post_form(client, "/login", {"email": "sam@example.com", "password": "wrong"})
    ok = post_form(client, "/login?next=/wishlist", {"email": "sam@example.com", "password": "correct horse battery"})
    header = client.get("/").get_data(as_text=True)
    out = post_form(client, "/logout", {}, page="/")

    assert failed.status_code == 422 and "Wrong email or password" in failed.get_data(as_text=True)
    assert ok.location.endswith("/wishlist")
    assert ">Sam</a>" in header and "Log out" in header
    assert out.status_code == 302 and client.get("/account").status_code == 302


def test_login_never_redirects_off_site(client):
    make_user("sam@example.com")
    response = post_form(
        client, "/login?next=https://evil.example/x", {"email": "sam@example.com", "password": "correct horse battery"}
    )
    assert response.location.endswith("/account")


def test_browser_login_is_rate_limited(client):
    make_user("sam@example.com")
    statuses = [
        post_form(client, "/login", {"email": "sam@example.com", "password": "bad"}).status_code for _ in range(6)
    ]

    assert statuses == [422] * 5 + [429]


def test_account_pages_need_login(client):
    for path in ("/account", "/wishlist"):
        response = client.get(path)
        assert response.status_code == 302 and "/login?next=" in response.location


def test_change_password(client):
    make_user("sam@example.com")
    post_form(client, "/login", {"email": "sam@example.com", "password": "correct horse battery"})

    wrong = post_form(client, "/account/password", {"current_password": "nope", "new_password": "a new password!",
                                                    "confirm": "a new password!"}, page="/account")  # fmt: skip
    right = post_form(client, "/account/password", {"current_password": "correct horse battery", "new_password": "a new password!",
                                                    "confirm": "a new password!"}, page="/account")  # fmt: skip

    assert wrong.status_code == 422 and "current password is wrong" in wrong.get_data(as_text=True)
    assert right.status_code == 302


def test_forgot_and_reset_password_through_the_outbox(client):
    make_user("sam@example.com")

    post_form(client, "/forgot-password", {"email": "sam@example.com"})
    reset_path = link_in_latest_email()
    done = post_form(client, reset_path, {"password": "a fresh password", "confirm": "a fresh password"})
    again = client.get(reset_path)
    login = post_form(client, "/login", {"email": "sam@example.com", "password": "a fresh password"})

    assert done.status_code == 302
    assert again.status_code == 400 and "already been used" in again.get_data(as_text=True)
    assert login.status_code == 302


def test_dev_outbox_lists_messages_in_development_only(app, client):
    make_user("sam@example.com")
    post_form(client, "/forgot-password", {"email": "sam@example.com"})

    listing = client.get("/dev/outbox").get_data(as_text=True)
    message = client.get(f"/dev/outbox/{list_outbox()[0].name}").get_data(as_text=True)
    app.config["APP_ENV"] = "production"

    assert "Reset your InsightShop password" in listing
    assert "/reset-password/" in message
    assert client.get("/dev/outbox").status_code == 404
    assert client.get("/dev/outbox/../../secret_key").status_code == 404


def test_header_shows_login_links_for_visitors(client):
    make_product()
    html = client.get("/").get_data(as_text=True)
    assert 'href="/login"' in html and 'href="/register"' in html
