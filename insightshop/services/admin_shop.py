"""Admin views of carts, reviews and sales (the changes are audited)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import delete, func, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models.accounts import User
from ..models.cart import CartItem
from ..models.catalog import Product, ProductVariant
from ..models.reviews import Review
from ..models.sales import Sale
from . import audit, pricing, reviews, sales
from .actors import Actor
from .errors import Invalid, NotFound


@dataclass
class ActiveCart:
    owner: str
    user_id: int | None
    guest_id: str | None
    lines: int
    units: int
    value: Decimal
    last_activity: datetime


def active_carts() -> list[ActiveCart]:
    """Every non-empty cart with its size, value at today's prices and last activity, most recent first."""
    book = pricing.PriceBook()
    carts: dict[tuple, ActiveCart] = {}
    for item in db.session.scalars(select(CartItem).order_by(CartItem.updated_at.desc())).unique():
        key = (item.user_id, item.guest_id)
        entry = carts.get(key)
        if entry is None:
            owner = db.session.get(User, item.user_id).email if item.user_id else f"guest {item.guest_id[:8]}"
            entry = carts[key] = ActiveCart(owner, item.user_id, item.guest_id, 0, 0, Decimal("0.00"), item.updated_at)
        entry.lines += 1
        entry.units += item.quantity
        entry.value += pricing.line_total(book.effective_price(item.variant.product), item.quantity)
        entry.last_activity = max(entry.last_activity, item.updated_at)
    return sorted(carts.values(), key=lambda c: c.last_activity, reverse=True)


def get_user(user_id: int) -> User:
    """A user by id, or 404."""
    user = db.session.get(User, user_id)
    if user is None:
        raise NotFound(f"User {user_id} does not exist")
    return user


def get_review(review_id: int) -> Review:
    """A review by id, or 404."""
    review = db.session.get(Review, review_id)
    if review is None:
        raise NotFound(f"Review {review_id} does not exist")
    return review


def clear_user_cart(actor: Actor, user_id: int) -> int:
    """Empty one user's cart (seed 001 admin_cart_clear_user)."""
    get_user(user_id)
    removed = db.session.execute(delete(CartItem).where(CartItem.user_id == user_id)).rowcount or 0
    audit.record(actor, "cart.clear", "user", user_id, after={"lines_removed": removed})
    db.session.commit()
    return removed


def list_reviews(*, rating: int | None = None, product_id: int | None = None, text: str | None = None,
                 limit: int = 100) -> list[Review]:  # fmt: skip
    statement = select(Review).options(selectinload(Review.product)).order_by(Review.id.desc())
    if rating:
        statement = statement.where(func.floor(Review.rating) == rating)
    if product_id:
        statement = statement.where(Review.product_id == product_id)
    if text:
        statement = statement.where(Review.comment.ilike(f"%{text}%"))
    return list(db.session.scalars(statement.limit(limit)))


def delete_review(actor: Actor, review_id: int) -> None:
    """Delete any review (seed 001 admin_review_delete); the product's rating is recomputed."""
    review = db.session.get(Review, review_id)
    before = (
        None
        if review is None
        else {"product_id": review.product_id, "rating": str(review.rating), "comment": review.comment}
    )
    reviews.delete_review(actor, review_id)
    audit.record(actor, "review.delete", "review", review_id, before=before)
    db.session.commit()


def list_sales() -> list[Sale]:
    return list(db.session.scalars(select(Sale).order_by(Sale.start_date.desc(), Sale.id.desc())))


def create_sale(actor: Actor, data: dict) -> Sale:
    """A new sale (seed 001 admin_sale_create), audited."""
    sale = sales.create_sale(
        data["name"], data["discount_percentage"], _date(data["start_date"]), _date(data["end_date"]),
        description=data.get("description", ""), is_active=data.get("is_active", False),
        auto_activate=data.get("auto_activate", True), categories=data.get("categories"),
        clothing_types=data.get("clothing_types"), product_ids=data.get("product_ids"),
    )  # fmt: skip
    audit.record(actor, "sale.create", "sale", sale.id, after=audit.snapshot(sale, ("name", "discount_percentage",
                 "start_date", "end_date", "is_active")))  # fmt: skip
    db.session.commit()
    return sale


def get_sale(sale_id: int) -> Sale:
    sale = db.session.get(Sale, sale_id)
    if sale is None:
        raise NotFound(f"Sale {sale_id} does not exist")
    return sale


def update_sale(actor: Actor, sale_id: int, data: dict) -> Sale:
    """Change a sale's fields; the window rules are those of a new sale."""
    sale = get_sale(sale_id)
    fields = ("name", "description", "discount_percentage", "start_date", "end_date", "is_active", "auto_activate")
    before = audit.snapshot(sale, fields)
    start = _date(data.get("start_date", sale.start_date))
    end = _date(data.get("end_date", sale.end_date))
    if end < start:
        raise Invalid(
            "end_date must not be before start_date", details=[{"field": "end_date", "message": "before start_date"}]
        )
    if data.get("is_active") and end < pricing.today():
        raise Invalid(
            "A sale that is over cannot be activated", details=[{"field": "is_active", "message": "sale is over"}]
        )
    sale.start_date, sale.end_date = start, end
    for key in ("name", "description", "is_active", "auto_activate"):
        if key in data:
            setattr(sale, key, data[key])
    if "discount_percentage" in data:
        sale.discount_percentage = Decimal(str(data["discount_percentage"]))
    for key in ("categories", "clothing_types", "product_ids"):
        if key in data:
            setattr(sale, key, data[key] or None)
    audit.record(actor, "sale.update", "sale", sale.id, before=before, after=audit.snapshot(sale, fields))
    db.session.commit()
    return sale


def delete_sale(actor: Actor, sale_id: int) -> None:
    sale = get_sale(sale_id)
    audit.record(actor, "sale.delete", "sale", sale.id, before=audit.snapshot(sale, ("name", "discount_percentage")))
    db.session.delete(sale)
    db.session.commit()


def set_sale_active(actor: Actor, sale_id: int, active: bool) -> Sale:
    sale = get_sale(sale_id)
    if active and sale.end_date < pricing.today():
        raise Invalid(
            "A sale that is over cannot be activated", details=[{"field": "is_active", "message": "sale is over"}]
        )
    before = {"is_active": sale.is_active}
    sale.is_active = active
    audit.record(
        actor,
        "sale.activate" if active else "sale.deactivate",
        "sale",
        sale.id,
        before=before,
        after={"is_active": active},
    )
    db.session.commit()
    return sale


@dataclass
class PreviewRow:
    product: Product
    price: Decimal
    sale_price: Decimal


def preview_sale(sale: Sale, limit: int = 50) -> tuple[int, list[PreviewRow]]:
    """How many active products a sale covers, and some of them with their new price."""
    hundred = Decimal(100)
    covered = [
        p
        for p in db.session.scalars(select(Product).where(Product.is_active).order_by(Product.id))
        if sale.applies_to(p)
    ]
    rows = [
        PreviewRow(p, pricing.quantize(p.price),
                   pricing.quantize(p.price * (hundred - Decimal(sale.discount_percentage)) / hundred))
        for p in covered[:limit]
    ]  # fmt: skip
    return len(covered), rows


def run_automation(actor: Actor) -> sales.AutomationReport:
    report = sales.run_sale_automation()
    audit.record(actor, "sale.automation", "sale", None, after={"created": report.created, "activated": report.activated,
                 "deactivated": report.deactivated})  # fmt: skip
    db.session.commit()
    return report


def low_stock_variants(threshold: int = 3, limit: int = 50) -> list[ProductVariant]:
    statement = (
        select(ProductVariant).join(Product).where(Product.is_active, ProductVariant.stock <= threshold)
        .order_by(ProductVariant.stock, ProductVariant.id).limit(limit)
    )  # fmt: skip
    return list(db.session.scalars(statement))


def _date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))
