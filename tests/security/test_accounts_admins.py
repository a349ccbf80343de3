"""Issue #10 item 5: a plain admin cannot disable, enable or send resets to admins and superadmins."""

import pytest

from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.services.mail import list_outbox
from tests.admin_helpers import make_admin
from tests.api.test_products_api import assert_error
from tests.factories import bearer, csrf_token, make_user


@pytest.fixture
def people(app):
    """Two superadmins (so the last-superadmin rule is not what stops anything), a plain admin, a helper admin."""
    boss = make_admin("boss@example.com")
    second = make_admin("second@example.com")
    helper = make_admin("helper@example.com", superadmin=False)
    other = make_admin("other@example.com", superadmin=False)
    customer = make_user("c@example.com")
    return {"boss": boss.id, "second": second.id, "helper": helper.id, "other": other.id, "customer": customer.id}


def helper_headers(app):
    return bearer(app.test_client(), "helper@example.com", "an admin password")


@pytest.mark.parametrize("target", ["boss", "second", "other"])
def test_a_plain_admin_cannot_disable_an_admin_or_superadmin_through_the_api(app, client, people, target):
    headers = helper_headers(app)

    refused = client.put(f"/api/admin/users/{people[target]}/disabled", headers=headers, json={"disabled": True})

    assert_error(refused, 403, "forbidden")
    db.session.expire_all()
    assert db.session.get(User, people[target]).is_disabled is False


def test_a_plain_admin_cannot_re_enable_a_disabled_admin(app, client, people):
    boss = bearer(app.test_client(), "boss@example.com", "an admin password")
    assert (
        client.put(f"/api/admin/users/{people['other']}/disabled", headers=boss, json={"disabled": True}).status_code
        == 200
    )

    refused = client.put(f"/api/admin/users/{people['other']}/disabled", headers=helper_headers(app),
                         json={"disabled": False})  # fmt: skip

    assert_error(refused, 403, "forbidden")
    db.session.expire_all()
    assert db.session.get(User, people["other"]).is_disabled is True


def test_a_plain_admin_cannot_send_an_admin_a_reset_link(app, client, people):
    refused = client.post(f"/api/admin/users/{people['boss']}/password-reset", headers=helper_headers(app))

    assert_error(refused, 403, "forbidden")
    assert list_outbox() == []


def test_a_plain_admin_still_manages_customers(app, client, people):
    headers = helper_headers(app)

    disabled = client.put(f"/api/admin/users/{people['customer']}/disabled", headers=headers, json={"disabled": True})
    reset = client.post(f"/api/admin/users/{people['customer']}/password-reset", headers=headers)

    assert disabled.status_code == 200 and disabled.get_json()["user"]["is_disabled"] is True
    assert reset.status_code == 202


def test_a_superadmin_may_disable_another_superadmin_but_not_the_last(app, client, people):
    boss = bearer(app.test_client(), "boss@example.com", "an admin password")

    done = client.put(f"/api/admin/users/{people['second']}/disabled", headers=boss, json={"disabled": True})
    admin_done = client.put(f"/api/admin/users/{people['helper']}/disabled", headers=boss, json={"disabled": True})

    assert done.status_code == 200 and admin_done.status_code == 200
    db.session.expire_all()
    last = db.session.get(User, people["boss"])
    assert last.is_superadmin and not last.is_disabled
    # The one active superadmin left cannot be disabled (not even by themself).
    assert_error(client.put(f"/api/admin/users/{people['boss']}/disabled", headers=boss, json={"disabled": True}),
                 409, "conflict")  # fmt: skip


def test_a_plain_admin_cannot_disable_a_superadmin_on_the_admin_page(app, people):
    page = app.test_client()
    page.post("/login", data={"email": "helper@example.com", "password": "an admin password",
                              "csrf_token": csrf_token(page, "/login")})  # fmt: skip
    token = csrf_token(page, "/admin/users")

    disable = page.post(f"/admin/users/{people['boss']}/disabled", data={"disabled": "1", "csrf_token": token})
    disable_page = page.get(disable.location).get_data(as_text=True)
    reset = page.post(f"/admin/users/{people['second']}/password-reset", data={"csrf_token": token})
    reset_page = page.get(reset.location).get_data(as_text=True)

    assert disable.status_code == 303 and reset.status_code == 303
    assert "Only a superadmin can change an admin" in disable_page
    assert "Only a superadmin can change an admin" in reset_page
    db.session.expire_all()
    assert db.session.get(User, people["boss"]).is_disabled is False
    assert list_outbox() == []
