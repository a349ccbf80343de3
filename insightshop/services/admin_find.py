"""An admin's product finder: filters (kind, department, colour, name words, active/inactive, stock at most) and a
sort (priciest, cheapest, lowest or highest stock, newest) — how "the priciest coat" or "the hoodies with the least
stock" are resolved before anything is changed."""

from __future__ import annotations

from sqlalchemy import func, select

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from .errors import Invalid
from .vocabulary import normalise_color

STOCK = (
    select(func.coalesce(func.sum(ProductVariant.stock), 0))
    .where(ProductVariant.product_id == Product.id)
    .correlate(Product)
    .scalar_subquery()
)
SORTS = {
    "price_desc": (Product.price.desc(), Product.id),
    "price_asc": (Product.price.asc(), Product.id),
    "stock_asc": (STOCK.asc(), Product.id),
    "stock_desc": (STOCK.desc(), Product.id),
    "newest": (Product.created_at.desc(), Product.id.desc()),
    "oldest": (Product.created_at.asc(), Product.id),
    "name": (Product.name, Product.id),
}
STATUSES = ("active", "inactive", "all")


def find_products(*, query: str | None = None, category: str | None = None, clothing_type: str | None = None,
                  color: str | None = None, status: str = "active", stock_at_most: int | None = None,
                  sort: str = "name", limit: int = 20) -> tuple[int, list[tuple[Product, int]]]:  # fmt: skip
    """(how many products match, the first `limit` of them sorted, each with its total stock)."""
    if sort not in SORTS or status not in STATUSES:
        raise Invalid("Unknown sort or status", details=[{"field": "sort", "message": f"one of {', '.join(SORTS)}"}])
    statement = select(Product, STOCK)
    if query:
        for word in query.split()[:6]:
            statement = statement.where(Product.name.ilike(f"%{word}%"))
    if category:
        statement = statement.where(Product.category == category)
    if clothing_type:
        statement = statement.where(Product.clothing_type == clothing_type)
    if color:
        wanted = normalise_color(color)
        if wanted is None:
            raise Invalid(f"{color!r} is not a shop colour", details=[{"field": "color", "message": "unknown"}])
        statement = statement.where(
            Product.id.in_(select(ProductVariant.product_id).where(ProductVariant.color == wanted))
        )
    if status != "all":
        statement = statement.where(Product.is_active.is_(status == "active"))
    if stock_at_most is not None:
        statement = statement.where(STOCK <= stock_at_most)  # noqa: SIM300 — an SQL expression, not a comparison
    total = db.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = db.session.execute(statement.order_by(*SORTS[sort]).limit(limit)).all()
    return total, [(product, int(stock)) for product, stock in rows]
