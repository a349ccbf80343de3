"""Comparing products side by side (2 to 10 at a time)."""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models.catalog import Product
from . import catalog
from .errors import Invalid, NotFound

MIN_COMPARE, MAX_COMPARE = 2, 10


def compare_products(product_ids: list[int]) -> list[Product]:
    """The products to compare, in the order asked; every id must be an active product."""
    ids = list(dict.fromkeys(product_ids))
    if not MIN_COMPARE <= len(ids) <= MAX_COMPARE:
        raise Invalid(f"Compare {MIN_COMPARE} to {MAX_COMPARE} different products",
                      details=[{"field": "product_ids", "message": f"{len(ids)} different products given"}])  # fmt: skip
    found = {p.id: p for p in db.session.scalars(select(Product).where(Product.id.in_(ids), Product.is_active))}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"No such product: {', '.join(map(str, missing))}", details=[{"product_ids": missing}])
    return [found[i] for i in ids]


def toggle_in_tray(tray: list[int], product_id: int) -> list[int]:
    """A compare tray with the product added (or removed when already there); at most 10 products."""
    if product_id in tray:
        return [i for i in tray if i != product_id]
    if len(tray) >= MAX_COMPARE:
        raise Invalid(f"You can compare at most {MAX_COMPARE} products; remove one first")
    catalog.get_product(product_id)
    return [*tray, product_id]
