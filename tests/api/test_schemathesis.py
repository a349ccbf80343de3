"""Schemathesis against the app's own /api/openapi.json, in process (WSGI), on a throwaway database.

Every documented operation gets a bounded, deterministic set of generated requests: the coverage phase's boundary
and invalid values (missing fields, wrong types, other methods), then EXAMPLES_PER_OPERATION fuzzed ones, valid and
invalid. The callers take turns, request by request: anonymous, a guest (a token from POST /api/auth/guest), a
customer and an admin, so each operation is tried by all four without running every case four times. Every answer
must be free of server errors and conform to the document: a status documented for the operation, JSON, the
documented schema.

Each request gets a fresh token, and before it the stage is set back (reset_stage): the fuzzing accounts enabled (the
admin a superadmin), the seeded shirt sold and in stock, a line of it in the caller's cart. So operations that end a
session (logout, logout-all) or that an admin may aim at the fuzzing accounts (disable, demote) are fuzzed like any
other instead of being excluded, and checkout gets past an empty cart. Nothing is excluded. Rate limits are off in
this app: otherwise they would turn most answers into 429 (the API tests, whose every answer is checked against the
document too, show where 429 is answered).
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections import defaultdict

import pytest
import schemathesis
import sqlalchemy as sa
from flask import current_app
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)  # fmt: skip

from insightshop import create_app
from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.models.catalog import Product
from insightshop.services import api_tokens, cart
from insightshop.services.actors import Actor
from tests.admin_helpers import make_admin
from tests.api_conformance import ConformingClient
from tests.factories import make_paid_order, make_product, make_user

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("TEST_DATABASE_URL")),
    reason="schemathesis runs on SQLite only: it checks the API's contract (statuses and bodies), which does not "
    "depend on the database; on PostgreSQL the API tests cover the same routes, every answer checked against the "
    "OpenAPI document too",
)

ROLES = ("anonymous", "guest", "customer", "admin")
ADMIN_TURNS = ("admin", "anonymous", "admin", "guest", "admin", "customer")
EXAMPLES_PER_OPERATION = 25  # fuzzed requests per operation, on top of the coverage phase's
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20261124,
        "generation": {
            "mode": "all",
            "max-examples": EXAMPLES_PER_OPERATION,
            "deterministic": True,
            "no-shrink": True,
            "database": "none",
        },
        "phases": {"stateful": {"enabled": False}},
        "suppress-health-check": ["all"],
    }
)
CUSTOMER = "fuzz.customer@example.com"
ADMIN = "fuzz.admin@example.com"


@pytest.fixture(scope="module")
def fuzz_app(migrated_database, tmp_path_factory):
    """A throwaway copy of the migrated database with a small catalog, a customer with orders, and an admin."""
    _, template = migrated_database
    folder = tmp_path_factory.mktemp("schemathesis")
    shutil.copyfile(template, folder / "fuzz.db")
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "schemathesis-" + "x" * 32, "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'fuzz.db'}"})  # fmt: skip
    app.instance_path = str(folder / "instance")
    app.test_client_class = ConformingClient
    with app.app_context():
        # A throwaway database need not survive a power cut: without a sync per commit the run is several times faster
        sa.event.listen(db.engine, "connect", lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
        _seed()
        db.session.remove()
    yield app
    with app.app_context():
        db.engine.dispose()


def _seed() -> None:
    from insightshop.services import admin_orders, reviews, wishlist

    shirt = make_product("Oxford Shirt", sizes=("S", "M", "L"), stock=5)
    current_app.config["SCHEMATHESIS_SHIRT"] = shirt.id
    make_product("Summer Dress", category="women", clothing_type="dress", color="red", sizes=("S", "M"), stock=2)
    make_product("Kids Hoodie", category="kids", clothing_type="hoodie", color="navy", sizes=("S",), stock=0)
    make_product("Hidden Jacket", clothing_type="jacket", is_active=False)
    customer = Actor(user=make_user(CUSTOMER))
    admin = Actor(user=make_admin(ADMIN))
    delivered = make_paid_order(customer, shirt, size="M")
    for status, extra in (("processing", {}), ("shipped", {"carrier": "UPS", "tracking_number": "1Z999"}),
                          ("delivered", {})):  # fmt: skip
        admin_orders.change_status(admin, delivered.id, status, **extra)
    make_paid_order(customer, shirt, size="S")
    reviews.save_review(customer, shirt.id, 4, "Fits well")
    wishlist.add_to_wishlist(customer, shirt.id)


def _document_app():
    """An app with no database behind it, only to serve /api/openapi.json while the tests are collected."""
    return create_app(
        {"APP_ENV": "testing", "SECRET_KEY": "document-" + "x" * 32, "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )


def credentials(app, role: str) -> dict[str, str]:
    """A fresh bearer token for this one request, after the stage is set back (see reset_stage)."""
    if role == "anonymous":
        return {}
    if role == "guest":
        guest = app.test_client().post("/api/auth/guest").get_json()
    with app.app_context():
        if role == "guest":
            token = guest["token"]
            reset_stage(Actor(guest_id=guest["guest_id"]))
        else:
            user = db.session.scalar(db.select(User).where(User.email == (ADMIN if role == "admin" else CUSTOMER)))
            reset_stage(Actor(user=user))
            token, _ = api_tokens.issue_token(user)
        db.session.remove()
    return {"Authorization": f"Bearer {token}"}


def reset_stage(actor: Actor) -> None:
    """What earlier requests may have changed back as it was: the fuzzing accounts enabled (the admin a superadmin),
    the shirt sold and in stock, and a line of it in the caller's cart, so checkout and payment get further than an
    empty cart."""
    for user in db.session.scalars(db.select(User).where(User.email.in_([CUSTOMER, ADMIN]))):
        admin = user.email == ADMIN
        if (user.is_disabled, user.is_admin, user.is_superadmin) != (False, admin, admin):
            user.is_disabled, user.is_admin, user.is_superadmin = False, admin, admin
    shirt = db.session.get(Product, current_app.config["SCHEMATHESIS_SHIRT"])  # admins may have renamed it
    if not shirt.is_active:
        shirt.is_active = True
    for variant in shirt.variants:
        if variant.stock < 5:
            variant.stock = 5
    if db.session.dirty:
        db.session.commit()
    if shirt.variants and not cart.get_cart(actor).lines:
        cart.add_item(actor, shirt.id, 1, shirt.variants[0].color, shirt.variants[0].size)


# The document as the app serves it; the requests go to the fuzzing app (call_and_validate(app=...)). The filter
# selects every operation: without one, schemathesis leaves out the operation that served the document.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", _document_app(), config=CONFIG).include(
    path_regex="^/api/"
)


_turns: defaultdict[str, itertools.count] = defaultdict(itertools.count)


def next_role(operation: str, callers: tuple[str, ...]) -> str:
    """The callers take turns per operation, in a fixed order, so a run is reproducible; under /api/admin every
    other turn is the admin's (the others only learn 401 or 403 there)."""
    turns = ADMIN_TURNS if " /api/admin/" in operation else callers
    return turns[next(_turns[operation]) % len(turns)]


# The callers as a parameter: it names them in every test id, and with pytest 9.2 schemathesis puts the operation in
# the test id only when the test is parametrized.
@pytest.mark.parametrize("callers", [ROLES], ids=["-".join(ROLES)])
@schema.parametrize()
def test_every_answer_conforms_to_the_document(case, fuzz_app, callers):
    role = next_role(case.operation.label, callers)
    try:
        case.call_and_validate(app=fuzz_app, headers=credentials(fuzz_app, role), checks=CHECKS)
    except Exception as failure:
        failure.add_note(f"{case.operation.label}, called as {role}.")
        raise
