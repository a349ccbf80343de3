"""No page runs a query per product, line or row it shows (issue 15): each main page is counted with 3 of
everything and again with 20, and must run the same number of SQL statements, below a fixed cap."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import event

from insightshop.extensions import db
from insightshop.models.reviews import Review
from insightshop.models.sales import Sale
from insightshop.services import cart, pricing, wishlist
from insightshop.services.actors import Actor
from tests.admin_helpers import make_admin
from tests.factories import bearer, csrf_token, make_paid_order, make_product, make_user

QUERY_CAP = 25
SHOP_PAGES = ("/", "/catalog?q=shirt", "HX /catalog?q=shirt", "/products/{first}", "HX /products/{first}",
              "/api/products?q=shirt", "/api/products/{first}")  # fmt: skip
SHOPPER_PAGES = ("/cart", "/wishlist", "/compare", "/account", "/api/cart")
ADMIN_PAGES = ("/admin/products", "/admin/orders", "/api/admin/products", "/api/admin/orders")


@contextmanager
def counted_statements():
    statements: list[str] = []

    def count(_connection, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def count_queries(client, path: str, headers: dict | None = None) -> tuple[int, list[str]]:
    """Statements one request runs (after a first request, so one-off work such as loading the user is equal)."""
    htmx = path.startswith("HX ")
    path = path.removeprefix("HX ")
    headers = {**(headers or {}), **({"HX-Request": "true"} if htmx else {})}
    assert client.get(path, headers=headers).status_code == 200, path
    with counted_statements() as statements:
        response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    return len(statements), statements


def add_products(count: int, shopper, owner: Actor) -> list[int]:
    """count more shirts, each bought, in the cart, saved and reviewed: every list on every page grows."""
    ids = []
    for _ in range(count):
        product = make_product("Oxford Shirt", is_featured=True, sizes=("M", "L"), stock=50, rating_count=3)
        make_paid_order(owner, product, size="M")
        ids.append(product.id)
    for product_id in ids:
        cart.add_item(owner, product_id, 1, size="L")
        wishlist.add_to_wishlist(owner, product_id)
        db.session.add(Review(product_id=product_id, guest_name="Ana", guest_id=f"guest-{product_id}",
                              rating=Decimal(4), comment="Fits well."))  # fmt: skip
    db.session.commit()
    return ids


def page_counts(clients: dict, first: int) -> dict[str, tuple[int, list[str]]]:
    anonymous, shopper, admin, api_headers = clients["anonymous"], clients["shopper"], clients["admin"], clients["api"]
    counts = {path: count_queries(anonymous, path.format(first=first)) for path in SHOP_PAGES}
    counts |= {path: count_queries(shopper, path, api_headers if path.startswith("/api/") else None)
               for path in SHOPPER_PAGES}  # fmt: skip
    counts |= {path: count_queries(admin, path) for path in ADMIN_PAGES}
    return counts


def log_in(client, email: str, password: str) -> None:
    client.post("/login", data={"email": email, "password": password, "csrf_token": csrf_token(client, "/login")})


def test_no_page_runs_a_query_per_product_line_or_row(app):
    app.config["RATELIMIT_ENABLED"] = False  # twenty orders by one buyer in a second are the point here
    user = make_user("shopper@example.com")
    make_admin()
    owner = Actor(user=user)
    today = pricing.today()
    db.session.add(Sale(name="Spring Sale", discount_percentage=Decimal(10), is_active=True,
                        start_date=today - timedelta(days=1), end_date=today + timedelta(days=5)))  # fmt: skip
    db.session.add(Sale(name="Shirt Days", discount_percentage=Decimal(15), is_active=True, clothing_types=["shirt"],
                        start_date=today, end_date=today + timedelta(days=2)))  # fmt: skip
    db.session.commit()
    anonymous, shopper, admin = app.test_client(), app.test_client(), app.test_client()
    log_in(shopper, "shopper@example.com", "correct horse battery")
    log_in(admin, "boss@example.com", "an admin password")
    clients = {"anonymous": anonymous, "shopper": shopper, "admin": admin, "api": bearer(app.test_client())}

    ids = add_products(3, shopper, owner)
    with shopper.session_transaction() as session:
        session["compare"] = ids
    few = page_counts(clients, ids[0])
    ids += add_products(17, shopper, owner)
    with shopper.session_transaction() as session:
        session["compare"] = ids[:10]
    many = page_counts(clients, ids[0])

    print({path: count for path, (count, _) in many.items()})  # shown with -s
    for path, (count, statements) in many.items():
        assert count == few[path][0], f"{path}: {few[path][0]} queries with 3 products, {count} with 20:\n" + "\n".join(
            statement[:120] for statement in statements
        )
        assert count <= QUERY_CAP, (path, count)
