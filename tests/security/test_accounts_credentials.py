"""Issue #10 item 3: stolen credentials die. API tokens, browser sessions and remember cookies carry the user's
credential version (bumped on password change, reset, "log out everywhere" and disable) and browser logins
have a server-side record that logout revokes."""

import re

import pytest

from insightshop.extensions import db
from insightshop.models.accounts import LoginSession, User
from insightshop.services.mail import list_outbox
from tests.admin_helpers import make_admin
from tests.api.test_products_api import assert_error
from tests.factories import bearer, csrf_token, make_user

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new password"


def browser_login(client, password=PASSWORD, *, remember=False):
    data = {"email": "sam@example.com", "password": password, "csrf_token": csrf_token(client, "/login")}
    if remember:
        data["remember"] = "y"
    response = client.post("/login", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)


def logged_in(client) -> bool:
    return client.get("/account").status_code == 200


def copy_cookies(source, target, *names):
    for name in names:
        cookie = source.get_cookie(name)
        assert cookie is not None, f"{name} cookie missing"
        target.set_cookie(name, cookie.value, domain=cookie.domain or "localhost")


def me(client, headers):
    return client.get("/api/auth/me", headers=headers)


def test_a_token_dies_when_the_password_changes_in_the_browser(app, client):
    make_user("sam@example.com")
    headers = bearer(app.test_client(), "sam@example.com")
    browser_login(client)

    changed = client.post("/account/password", data={"current_password": PASSWORD, "new_password": NEW_PASSWORD,
                                                     "confirm": NEW_PASSWORD, "csrf_token": csrf_token(client, "/account")})  # fmt: skip

    assert changed.status_code == 302
    error = assert_error(me(client, headers), 401, "token_revoked")
    assert "log in again" in error["message"]
    assert logged_in(client)  # the browser that changed it starts a fresh session


def test_a_token_dies_after_a_password_reset(app, client):
    make_user("sam@example.com")
    headers = bearer(app.test_client(), "sam@example.com")

    client.post("/api/auth/password-reset", json={"email": "sam@example.com"})
    path = re.search(r"http://127\.0\.0\.1:\d+(/\S+)", list_outbox()[0].body).group(1)
    reset = client.post(path, data={"password": NEW_PASSWORD, "confirm": NEW_PASSWORD,
                                    "csrf_token": csrf_token(client, path)})  # fmt: skip

    assert reset.status_code == 302
    assert_error(me(client, headers), 401, "token_revoked")
    assert me(client, bearer(app.test_client(), "sam@example.com", NEW_PASSWORD)).status_code == 200


def test_log_out_everywhere_over_the_api_kills_every_token_and_session(app, client):
    make_user("sam@example.com")
    first, second = bearer(app.test_client(), "sam@example.com"), bearer(app.test_client(), "sam@example.com")
    browser = app.test_client()
    browser_login(browser, remember=True)

    response = client.post("/api/auth/logout-all", headers=first)

    assert response.status_code == 200 and response.get_json()["ok"] is True
    assert_error(me(client, first), 401, "token_revoked")
    assert_error(me(client, second), 401, "token_revoked")
    assert not logged_in(browser)
    assert me(client, bearer(app.test_client(), "sam@example.com")).status_code == 200  # a new login works


def test_log_out_everywhere_needs_a_user(client):
    assert_error(client.post("/api/auth/logout-all"), 401, "unauthorized")


def test_log_out_everywhere_on_the_account_page(app, client):
    make_user("sam@example.com")
    headers = bearer(app.test_client(), "sam@example.com")
    other_browser = app.test_client()
    browser_login(other_browser, remember=True)
    browser_login(client)
    assert "Log out everywhere" in client.get("/account").get_data(as_text=True)

    no_csrf = client.post("/account/logout-all")
    assert logged_in(other_browser) and me(client, headers).status_code == 200
    done = client.post("/account/logout-all", data={"csrf_token": csrf_token(client, "/account")})

    assert no_csrf.status_code in (302, 400)
    assert done.status_code == 302 and done.location.endswith("/login")
    assert not logged_in(client) and not logged_in(other_browser)
    assert_error(me(app.test_client(), headers), 401, "token_revoked")


def test_disabling_a_user_kills_their_tokens_and_sessions(app, client):
    make_admin()
    make_user("sam@example.com")
    sam = db.session.query(User).filter_by(email="sam@example.com").one()
    headers = bearer(app.test_client(), "sam@example.com")
    browser = app.test_client()
    browser_login(browser, remember=True)
    stolen = app.test_client()
    copy_cookies(browser, stolen, "session", "remember_token")
    admin = bearer(app.test_client(), "boss@example.com", "an admin password")

    disabled = client.put(f"/api/admin/users/{sam.id}/disabled", headers=admin, json={"disabled": True})
    enabled = client.put(f"/api/admin/users/{sam.id}/disabled", headers=admin, json={"disabled": False})

    assert disabled.status_code == 200 and enabled.status_code == 200
    assert_error(me(client, headers), 401, "token_revoked")
    assert not logged_in(browser) and not logged_in(stolen)  # re-enabling does not revive old credentials


def test_another_browser_session_is_logged_out_after_a_password_change(app):
    make_user("sam@example.com")
    laptop, phone = app.test_client(), app.test_client()
    browser_login(laptop)
    browser_login(phone, remember=True)
    assert logged_in(phone)

    laptop.post("/account/password", data={"current_password": PASSWORD, "new_password": NEW_PASSWORD,
                                           "confirm": NEW_PASSWORD, "csrf_token": csrf_token(laptop, "/account")})  # fmt: skip

    assert logged_in(laptop)
    assert not logged_in(phone)


def test_a_session_cookie_copied_before_logout_is_refused_after_it(app):
    make_user("sam@example.com")
    victim, thief = app.test_client(), app.test_client()
    browser_login(victim)
    copy_cookies(victim, thief, "session")
    assert logged_in(thief)  # the copy works while the victim is logged in

    victim.post("/logout", data={"csrf_token": csrf_token(victim, "/")})

    assert not logged_in(victim)
    assert not logged_in(thief)
    assert "Log out" not in thief.get("/").get_data(as_text=True)


def test_a_remember_cookie_copied_before_logout_is_refused_after_it(app):
    make_user("sam@example.com")
    victim, thief = app.test_client(), app.test_client()
    browser_login(victim, remember=True)
    stolen = victim.get_cookie("remember_token").value
    thief.set_cookie("remember_token", stolen, domain="localhost")  # the remember cookie alone, no session
    assert logged_in(thief)  # it gets in while the victim is logged in

    victim.post("/logout", data={"csrf_token": csrf_token(victim, "/")})
    later = app.test_client()
    later.set_cookie("remember_token", stolen, domain="localhost")

    assert not logged_in(later)
    thief.delete_cookie("session")
    assert not logged_in(thief)


def test_logout_revokes_the_login_session_record(app, client):
    make_user("sam@example.com")
    browser_login(client)
    [record] = db.session.query(LoginSession).all()
    assert record.revoked_at is None

    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})

    db.session.expire_all()
    assert db.session.get(LoginSession, record.id).revoked_at is not None


def test_a_token_with_an_old_credential_version_is_refused_even_if_its_record_is_live(app, client):
    import jwt

    make_user("sam@example.com")
    token = bearer(app.test_client(), "sam@example.com")["Authorization"].split()[1]
    claims = jwt.decode(token, options={"verify_signature": False})

    assert claims["cv"] == 1
    sam = db.session.query(User).one()
    sam.credential_version = 2
    db.session.commit()
    assert_error(me(client, {"Authorization": f"Bearer {token}"}), 401, "token_revoked")


@pytest.mark.parametrize("user_id", ["1", "1:1", "1:1:", "abc", "1:x:abc", "1:1:made-up"])
def test_old_or_forged_session_ids_are_nobody(app, client, user_id):
    make_user("sam@example.com")
    with client.session_transaction() as session:
        session["_user_id"] = user_id
        session["_fresh"] = True

    assert not logged_in(client)


def test_a_login_session_replayed_from_another_browser_is_refused(app):
    # Flask-Login's strong session protection: the session is bound to the browser (address and user agent).
    make_user("sam@example.com")
    victim, thief = app.test_client(), app.test_client()
    browser_login(victim)
    copy_cookies(victim, thief, "session")

    assert thief.get("/account", headers={"User-Agent": "a different browser"}).status_code == 302
    assert logged_in(victim)


def test_an_anonymous_visitor_is_not_sent_a_cookie_on_every_page(client):
    first = client.get("/privacy")
    assert [c for c in first.headers.getlist("Set-Cookie") if c.startswith("session=")]  # the CSRF secret

    for path in ("/privacy", "/", "/catalog?q=shirt", "/help"):
        again = client.get(path)
        assert again.status_code == 200
        # Nothing changed: no fresh session cookie, no remember-cookie deletion.
        assert again.headers.getlist("Set-Cookie") == [], path
