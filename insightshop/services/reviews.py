"""Reviews: one per user per product (editable), guests with a name; ratings kept in step on the product."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select

from ..extensions import db
from ..models.catalog import Product
from ..models.reviews import Review
from . import catalog
from .actors import Actor
from .errors import Forbidden, Invalid, NotFound

MAX_COMMENT = 2000


def list_reviews(product_id: int, *, limit: int = 50, offset: int = 0) -> list[Review]:
    """A product's reviews, newest first."""
    catalog.get_product(product_id)
    statement = (
        select(Review)
        .where(Review.product_id == product_id)
        .order_by(Review.created_at.desc(), Review.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return list(db.session.scalars(statement))


def review_by(actor: Actor, product_id: int) -> Review | None:
    """The signed-in user's own review of a product, if any."""
    if actor.user is None:
        return None
    return db.session.scalar(select(Review).where(Review.product_id == product_id, Review.user_id == actor.user.id))


def save_review(
    actor: Actor, product_id: int, rating, comment: str = "", user_name: str | None = None
) -> tuple[Review, bool]:
    """Create the actor's review, or update a user's existing one; returns (review, created)."""
    product = catalog.get_product(product_id)
    stars = _check_rating(rating)
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT:
        raise Invalid(
            f"comment: at most {MAX_COMMENT} characters", details=[{"field": "comment", "message": "too long"}]
        )
    review = review_by(actor, product_id)
    created = review is None
    if actor.user is None:
        name = (user_name or "").strip()
        if not name:
            raise Invalid("user_name: guests sign their review with a name",
                          details=[{"field": "user_name", "message": "Please add your name; guests sign their reviews"}])  # fmt: skip
        review = Review(product_id=product.id, guest_name=name[:255])
        db.session.add(review)
    elif review is None:
        review = Review(product_id=product.id, user_id=actor.user.id)
        db.session.add(review)
    review.rating = stars
    review.comment = comment
    db.session.flush()
    refresh_rating(product)
    db.session.commit()
    return review, created


def product_of_review(review_id: int) -> int:
    """The product a review belongs to, or 404."""
    review = db.session.get(Review, review_id)
    if review is None:
        raise NotFound(f"Review {review_id} does not exist")
    return review.product_id


def delete_review(actor: Actor, review_id: int) -> None:
    """Delete a review: its author, or an admin."""
    review = db.session.get(Review, review_id)
    if review is None:
        raise NotFound(f"Review {review_id} does not exist")
    if not actor.is_admin and (actor.user is None or review.user_id != actor.user.id):
        raise Forbidden("You can only delete your own reviews")
    product = db.session.get(Product, review.product_id)
    db.session.delete(review)
    db.session.flush()
    refresh_rating(product)
    db.session.commit()


def refresh_rating(product: Product) -> None:
    """Recompute a product's average rating and review count from its reviews."""
    average, count = db.session.execute(
        select(func.avg(Review.rating), func.count(Review.id)).where(Review.product_id == product.id)
    ).one()
    product.rating_count = int(count)
    product.rating = Decimal(str(average or 0)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _check_rating(rating) -> Decimal:
    try:
        value = Decimal(str(rating))
    except Exception:
        value = None
    if value is None or isinstance(rating, bool) or not value.is_finite() or not Decimal(1) <= value <= Decimal(5):
        raise Invalid("rating must be a number from 1 to 5", details=[{"field": "rating", "message": "from 1 to 5"}])
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
