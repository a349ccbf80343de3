"""The fuzzing stage shared by tests/api/test_schemathesis.py (in process, SQLite) and bench/fuzz_http.py (gunicorn,
PostgreSQL): the schemathesis configuration, the checks, the callers and their turns, the seeded data and the reset
before every request.

The callers take turns, request by request: anonymous, a guest (a token from POST /api/auth/guest), a customer and an
admin, so each operation is tried by all four without running every case four times. Each request gets a fresh token,
and before it the stage is set back (reset_stage): the fuzzing accounts enabled (the admin a superadmin), the seeded
shirt sold and in stock, a line of it in the caller's cart. So operations that end a session (logout, logout-all) or
that an admin may aim at the fuzzing accounts (disable, demote) are fuzzed like any other instead of being excluded,
and checkout gets past an empty cart.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import schemathesis
from flask import current_app
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)  # fmt: skip

from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.models.catalog import Product
from insightshop.services import api_tokens, cart
from insightshop.services.actors import Actor
from tests.admin_helpers import make_admin
from tests.factories import make_paid_order, make_product, make_user

ROLES = ("anonymous", "guest", "customer", "admin")
ADMIN_TURNS = ("admin", "anonymous", "admin", "guest", "admin", "customer")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
SEED = 20261124
CUSTOMER = "fuzz.customer@example.com"
ADMIN = "fuzz.admin@example.com"


def make_config(max_examples: int, seed: int = SEED) -> schemathesis.Config:
    """Deterministic generation in every mode (valid and invalid), the coverage phase plus `max_examples` fuzzed
    requests per operation, no shrinking, no stateful phase."""
    return schemathesis.Config.from_dict(
        {
            "seed": seed,
            "generation": {
                "mode": "all",
                "max-examples": max_examples,
                "deterministic": True,
                "no-shrink": True,
                "database": "none",
            },
            "phases": {"stateful": {"enabled": False}},
            "suppress-health-check": ["all"],
        }
    )


def seed_stage() -> None:
    """A small catalog, a customer with orders (one delivered), a review and a wishlist entry, and an admin."""
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


def credentials(app, role: str) -> dict[str, str]:
    """A fresh bearer token for this one request, after the stage is set back (see reset_stage). `app` works on the
    database the requests go to (the fuzzed app itself, or a staging app on the live server's database)."""
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


_turns: defaultdict[str, itertools.count] = defaultdict(itertools.count)


def next_role(operation: str, callers: tuple[str, ...] = ROLES) -> str:
    """The callers take turns per operation, in a fixed order, so a run is reproducible; under /api/admin every
    other turn is the admin's (the others only learn 401 or 403 there)."""
    turns = ADMIN_TURNS if " /api/admin/" in operation else callers
    return turns[next(_turns[operation]) % len(turns)]
