import pytest

from insightshop.extensions import db
from insightshop.services import accounts
from insightshop.services.actors import Unauthorized
from insightshop.services.errors import Conflict, Invalid
from tests.factories import make_user


def test_register_normalises_email_and_hashes_the_password():
    user = accounts.register_user("  Sam.Shopper@Example.COM ", "correct horse battery", first_name=" Sam ")

    assert user.email == "sam.shopper@example.com"
    assert user.first_name == "Sam"
    assert user.password_hash.startswith("scrypt:")
    assert "correct horse battery" not in user.password_hash
    assert not user.is_verified and not user.is_admin


def test_outside_the_tests_passwords_get_werkzeugs_full_scrypt_work_factor_and_both_kinds_verify(app):
    from insightshop.config import load_config

    light = accounts.register_user("light@example.com", "correct horse battery")
    app.config["PASSWORD_HASH_METHOD"] = load_config(app.instance_path, {"APP_ENV": "development"})[
        "PASSWORD_HASH_METHOD"
    ]
    full = accounts.register_user("full@example.com", "correct horse battery")

    assert light.password_hash.startswith("scrypt:1024:8:1$")
    assert full.password_hash.startswith("scrypt:32768:8:1$")
    for email in ("light@example.com", "full@example.com"):
        assert accounts.authenticate(email, "correct horse battery").email == email


def test_register_refuses_duplicates_bad_emails_and_weak_passwords():
    make_user("taken@example.com")

    with pytest.raises(Conflict):
        accounts.register_user("TAKEN@example.com", "another good one")
    with pytest.raises(Invalid) as bad_email:
        accounts.register_user("not-an-email", "another good one")
    with pytest.raises(Invalid) as short:
        accounts.register_user("new@example.com", "short")
    with pytest.raises(Invalid):
        accounts.register_user("new@example.com", "aaaaaaaaaaaa")
    assert bad_email.value.details[0]["field"] == "email"
    assert short.value.details[0]["field"] == "password"


def test_authenticate_gives_one_answer_for_every_failure():
    user = make_user("sam@example.com", "correct horse battery")

    assert accounts.authenticate("SAM@example.com", "correct horse battery") == user
    assert user.last_login_at is not None
    messages = set()
    for email, password in (("sam@example.com", "wrong"), ("nobody@example.com", "correct horse battery")):
        with pytest.raises(Unauthorized) as error:
            accounts.authenticate(email, password)
        messages.add(error.value.message)
    user.is_disabled = True
    with pytest.raises(Unauthorized):
        accounts.authenticate("sam@example.com", "correct horse battery")
    assert messages == {"Wrong email or password"}


def test_a_verification_link_opened_again_confirms_again_but_not_for_a_changed_address():
    user = make_user(verified=False)
    token = accounts.make_token(user, accounts.VERIFY)

    assert accounts.verify_email(token).is_verified
    assert accounts.verify_email(token).id == user.id  # opened twice: still confirmed, no error
    user.email, user.is_verified = "changed@example.com", False
    db.session.commit()
    with pytest.raises(Invalid, match="already been used"):
        accounts.verify_email(token)


def test_tokens_expire_and_cannot_be_forged_or_reused_for_another_purpose(monkeypatch):
    user = make_user(verified=False)
    token = accounts.make_token(user, accounts.VERIFY)

    with pytest.raises(Invalid) as forged:
        accounts.verify_email(token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    with pytest.raises(Invalid):
        accounts.reset_password(token, "a brand new password")  # a verify token is no reset token
    monkeypatch.setattr(accounts, "VERIFY", accounts.TokenPurpose(accounts.VERIFY.salt, -1))
    with pytest.raises(Invalid) as expired:
        accounts.verify_email(token)
    assert forged.value.code == "token_invalid"
    assert expired.value.code == "token_expired"


def test_password_reset_token_is_single_use():
    user = make_user(password="correct horse battery")
    token = accounts.make_token(user, accounts.RESET)

    accounts.reset_password(token, "a brand new password")

    assert accounts.authenticate(user.email, "a brand new password") == user
    with pytest.raises(Invalid, match="already been used"):
        accounts.reset_password(token, "yet another password")


def test_change_password_checks_the_current_one():
    user = make_user(password="correct horse battery")

    with pytest.raises(Invalid) as wrong:
        accounts.change_password(user, "nope", "a brand new password")
    accounts.change_password(user, "correct horse battery", "a brand new password")

    assert wrong.value.details[0]["field"] == "current_password"
    assert accounts.authenticate(user.email, "a brand new password") == user
