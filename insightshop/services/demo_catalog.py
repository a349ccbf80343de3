"""Loads the demo catalog: idempotent (keyed by slug) and never deletes or overwrites anything."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from ..extensions import db
from ..models.base import utcnow
from ..models.catalog import Product, ProductVariant
from ..models.reviews import Review
from . import search_index
from .demo_catalog_data import demo_products
from .demo_reviews_data import demo_reviews
from .reviews import refresh_rating

COLOR_CODES = {
    "white": "WHT", "black": "BLK", "grey": "GRY", "navy": "NVY", "blue": "BLU", "red": "RED", "green": "GRN",
    "pink": "PNK", "yellow": "YLW", "beige": "BGE", "brown": "BRN", "purple": "PRP", "orange": "ORG",
}  # fmt: skip


@dataclass(frozen=True)
class SeedResult:
    created: int
    skipped: int


def sku_for(product_id: int, color: str, size: str) -> str:
    """Stock-keeping unit code of one variant, e.g. IS000031-WHT-L."""
    return f"IS{product_id:06d}-{COLOR_CODES.get(color, color[:3].upper())}-{size}"


def seed_demo_catalog() -> SeedResult:
    """Add every demo product whose slug is not in the catalog yet."""
    items = demo_products()
    existing = set(db.session.scalars(select(Product.slug).where(Product.slug.in_([i["slug"] for i in items]))))
    created = 0
    now = utcnow()
    for item in items:
        if item["slug"] in existing:
            continue
        product = Product(**_product_fields(item, now))
        db.session.add(product)
        db.session.flush()
        for color in item["colors"]:
            for size in item["sizes"]:
                product.variants.append(
                    ProductVariant(
                        color=color,
                        size=size,
                        sku=sku_for(product.id, color, size),
                        stock=item["stock"].get(f"{color}/{size}", 0),
                    )  # fmt: skip
                )
        for name, rating, comment in demo_reviews(item["slug"], item["clothing_type"], item["rating"],
                                                  item["rating_count"]):  # fmt: skip
            # Demo reviews stand for real buyers: they are verified purchases and make the demo's ratings.
            db.session.add(Review(product_id=product.id, guest_name=name, rating=rating, comment=comment,
                                  is_verified_purchase=True))  # fmt: skip
        db.session.flush()
        refresh_rating(product)
        created += 1
    db.session.commit()
    return SeedResult(created=created, skipped=len(items) - created)


def bulk_load(connection: Connection, items: list[dict], *, first_id: int = 1) -> int:
    """Insert many products and variants with Core statements (benchmarks), then index them."""
    now = utcnow()
    products, variants = [], []
    for offset, item in enumerate(items):
        product_id = first_id + offset
        products.append({"id": product_id, **_product_fields(item, now)})
        for color in item["colors"]:
            for size in item["sizes"]:
                variants.append({"product_id": product_id, "color": color, "size": size,
                                 "sku": sku_for(product_id, color, size),
                                 "stock": item["stock"].get(f"{color}/{size}", 0)})  # fmt: skip
    connection.execute(insert(Product), products)
    connection.execute(insert(ProductVariant), variants)
    search_index.reindex(connection, [p["id"] for p in products])
    return len(products)


def _product_fields(item: dict, now) -> dict:
    created = now - timedelta(days=item.get("days_old", 0))
    return {
        "name": item["name"],
        "slug": item["slug"],
        "description": item["description"],
        "price": item["price"],
        "category": item["category"],
        "clothing_type": item["clothing_type"],
        "color": item["color"],
        "fabric": item.get("fabric"),
        "season": item.get("season"),
        "is_active": True,
        "is_featured": item.get("featured", False),
        "rating": item.get("rating", 0),
        "rating_count": item.get("rating_count", 0),
        "created_at": created,
        "updated_at": created,
    }
