"""Factories for test data, written through the ORM so the search index stays in sync as in production."""

from __future__ import annotations

import itertools
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.catalog import Product, ProductVariant
from insightshop.services.demo_catalog import sku_for

_sequence = itertools.count(1)


def make_product(
    name: str = "Classic Oxford Shirt",
    *,
    clothing_type: str = "shirt",
    color: str = "white",
    colors: tuple[str, ...] | None = None,
    sizes: tuple[str, ...] = ("S", "M", "L"),
    stock: int | dict[str, int] = 5,
    category: str = "men",
    price: str = "49.00",
    description: str = "A dependable everyday piece.",
    fabric: str | None = "cotton",
    season: str | None = "all-season",
    rating: str = "4.0",
    rating_count: int = 10,
    is_active: bool = True,
    is_featured: bool = False,
) -> Product:
    """A product with one variant per colour × size; stock is per variant ("white/L": 2) or the same for all."""
    number = next(_sequence)
    product = Product(
        name=name,
        slug=f"{name.lower().replace(' ', '-')}-{number}",
        description=description,
        price=Decimal(price),
        category=category,
        clothing_type=clothing_type,
        color=color,
        fabric=fabric,
        season=season,
        rating=Decimal(rating),
        rating_count=rating_count,
        is_active=is_active,
        is_featured=is_featured,
    )
    db.session.add(product)
    db.session.flush()
    for variant_color in colors or (color,):
        for size in sizes:
            units = stock.get(f"{variant_color}/{size}", 0) if isinstance(stock, dict) else stock
            product.variants.append(
                ProductVariant(
                    color=variant_color, size=size, sku=sku_for(product.id, variant_color, size), stock=units
                )
            )
    db.session.commit()
    return product


def make_user(
    email: str = "shopper@example.com",
    password: str = "correct horse battery",
    *,
    first_name: str = "Sam",
    verified: bool = True,
    admin: bool = False,
):
    """A registered user (through the accounts service, so the password is hashed as in production)."""
    from insightshop.services.accounts import register_user

    return register_user(email, password, first_name=first_name, is_verified=verified, is_admin=admin)


def bearer(client, email: str = "shopper@example.com", password: str = "correct horse battery") -> dict:
    """Authorization headers for a user logged in through the API."""
    response = client.post("/api/auth/login", json={"email": email, "password": password})
    assert response.status_code == 200, response.get_json()
    return {"Authorization": f"Bearer {response.get_json()['token']}"}


def guest_bearer(client) -> dict:
    response = client.post("/api/auth/guest")
    assert response.status_code == 201
    return {"Authorization": f"Bearer {response.get_json()['token']}"}


def csrf_token(client, path: str = "/") -> str:
    """The CSRF token a page hands to the browser (read from the page's hx-headers)."""
    import re

    html = client.get(path).get_data(as_text=True)
    return re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)


def make_paid_order(actor, product, *, size: str | None = None):
    """The actor buys one unit of the product (placed and paid with the offline test card), as a real buyer would."""
    from insightshop.services import cart, orders
    from insightshop.services.payments import offline

    cart.add_item(actor, product.id, 1, size=size or product.variants[0].size)
    order = orders.place_order(actor, orders.ShippingDetails(
        email=actor.user.email if actor.user else "guest@example.com", shipping_name="Sam Buyer",
        shipping_address="1 Main St", shipping_city="Springfield", shipping_state="IL", shipping_zip="62701"))  # fmt: skip
    offline.create_intent(order)
    offline.confirm(order, "4242 4242 4242 4242")
    return order
