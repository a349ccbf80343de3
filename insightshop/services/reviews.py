"""Reviews: one per author (user or guest) per product, editable; rate limited; only verified purchases
count toward a product's rating, and only the flag, never the author's name, says "verified"."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import and_, exists, func, or_, select, update

from ..extensions import db
from ..models.catalog import Product
from ..models.orders import Order, OrderItem
from ..models.reviews import Review
from . import catalog, rate_limits
from .actors import Actor
from .errors import Forbidden, Invalid, NotFound

MAX_COMMENT = 2000
# Orders in these states were paid for: their buyers' reviews are verified purchases.
PURCHASED_STATUSES = ("paid", "processing", "shipped", "delivered")
PER_CLIENT = rate_limits.Rule("review-client", "REVIEW_LIMIT_PER_CLIENT", "5 per hour",
                              "Too many reviews from this address; try again later")  # fmt: skip
PER_AUTHOR = rate_limits.Rule("review-author", "REVIEW_LIMIT_PER_AUTHOR", "10 per day",
                              "You have written many reviews recently; try again later")  # fmt: skip
# Guest names may not pass for the shop, its staff or a verification mark (compared without case,
# accents, spacing or punctuation).
RESERVED_WORDS = {"admin", "administrator", "moderator", "mod", "staff", "official", "support", "insightshop",
                  "verified", "verification", "owner", "seller", "system"}  # fmt: skip
RESERVED_RUNS = ("insightshop", "verified", "admin", "moderator", "customerservice", "shopteam")


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
    """The actor's own review of a product (a user's, or this guest identity's), if any."""
    author = _author_clause(actor)
    if author is None:
        return None
    return db.session.scalar(select(Review).where(Review.product_id == product_id, author))


def save_review(
    actor: Actor, product_id: int, rating, comment: str = "", user_name: str | None = None, *, client: str | None = None
) -> tuple[Review, bool]:
    """Create the actor's review of a product, or update their existing one; returns (review, created).

    Guests need a guest identity (session or guest token) and sign with a name that does not impersonate
    the shop; every save counts against the per-client and per-author limits (429 rate_limited)."""
    actor.require_owner()
    product = catalog.get_product(product_id)
    stars = _check_rating(rating)
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT:
        raise Invalid(
            f"comment: at most {MAX_COMMENT} characters", details=[{"field": "comment", "message": "too long"}]
        )
    name = _check_guest_name(user_name) if actor.user is None else None
    rate_limits.take((PER_CLIENT, client), (PER_AUTHOR, _author_key(actor)))
    review = review_by(actor, product.id)
    created = review is None
    if created:
        review = Review(product_id=product.id, **_author_fields(actor))
        db.session.add(review)
    if name is not None:
        review.guest_name = name
    review.rating = stars
    review.comment = comment
    review.is_verified_purchase = review.is_verified_purchase or has_purchased(actor, product.id)
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
    """Delete a review: its author (user or guest identity), or an admin."""
    review = db.session.get(Review, review_id)
    if review is None:
        raise NotFound(f"Review {review_id} does not exist")
    own = review_by(actor, review.product_id)
    if not actor.is_admin and (own is None or own.id != review.id):
        raise Forbidden("You can only delete your own reviews")
    product = db.session.get(Product, review.product_id)
    db.session.delete(review)
    db.session.flush()
    refresh_rating(product)
    db.session.commit()


def has_purchased(actor: Actor, product_id: int) -> bool:
    """Whether the actor (a user, or a guest by its cart guest id) has a paid order containing the product."""
    buyer = _buyer_clause(actor.user.id if actor.user else None, actor.guest_id if actor.user is None else None)
    if buyer is None:
        return False
    return bool(db.session.scalar(select(_paid_order_with(product_id, buyer))))


def verify_purchases(order: Order) -> int:
    """Mark the order's buyer's reviews of its products verified once it is paid, and recompute those ratings.

    Joins the caller's transaction (no commit): payments can call it where an order becomes paid."""
    if order.status not in PURCHASED_STATUSES:
        return 0
    product_ids = {item.product_id for item in order.items if item.product_id is not None}
    authors = []
    if order.user_id is not None:
        authors.append(Review.user_id == order.user_id)
    if order.cart_guest_id:
        authors.append(Review.guest_id == order.cart_guest_id)
    if not product_ids or not authors:
        return 0
    result = db.session.execute(
        update(Review)
        .where(Review.product_id.in_(product_ids), or_(*authors), Review.is_verified_purchase.is_(False))
        .values(is_verified_purchase=True)
        .execution_options(synchronize_session=False)
    )
    for product in db.session.scalars(select(Product).where(Product.id.in_(product_ids))):
        refresh_rating(product)
    return result.rowcount or 0


def refresh_rating(product: Product) -> None:
    """Recompute a product's rating and count from its verified reviews (verifying purchases made since)."""
    _verify_reviews_of(product.id)
    average, count = db.session.execute(
        select(func.avg(Review.rating), func.count(Review.id)).where(
            Review.product_id == product.id, Review.is_verified_purchase.is_(True)
        )
    ).one()
    product.rating_count = int(count)
    product.rating = Decimal(str(average or 0)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _verify_reviews_of(product_id: int) -> None:
    """Lazily verify unverified reviews of a product whose authors have paid for it meanwhile."""
    buyer = or_(
        and_(Review.user_id.is_not(None), Order.user_id == Review.user_id),
        and_(Review.guest_id.is_not(None), Order.cart_guest_id == Review.guest_id),
    )
    db.session.execute(
        update(Review)
        .where(Review.product_id == product_id, Review.is_verified_purchase.is_(False),
               _paid_order_with(product_id, buyer))
        .values(is_verified_purchase=True)
        .execution_options(synchronize_session="fetch")
    )  # fmt: skip


def _paid_order_with(product_id: int, buyer):
    return exists(
        select(Order.id)
        .join(OrderItem, OrderItem.order_id == Order.id)
        .where(buyer, OrderItem.product_id == product_id, Order.status.in_(PURCHASED_STATUSES))
    )


def _buyer_clause(user_id: int | None, guest_id: str | None):
    if user_id is not None:
        return Order.user_id == user_id
    if guest_id:
        return Order.cart_guest_id == guest_id
    return None


def _author_clause(actor: Actor):
    if actor.user is not None:
        return Review.user_id == actor.user.id
    if actor.guest_id:
        return Review.guest_id == actor.guest_id
    return None


def _author_fields(actor: Actor) -> dict:
    return {"user_id": actor.user.id} if actor.user is not None else {"guest_id": actor.guest_id}


def _author_key(actor: Actor) -> str:
    return f"user:{actor.user.id}" if actor.user is not None else f"guest:{actor.guest_id}"


def _check_guest_name(user_name: str | None) -> str:
    name = " ".join((user_name or "").split())[:255]
    if not name:
        raise Invalid("user_name: guests sign their review with a name",
                      details=[{"field": "user_name", "message": "Please add your name; guests sign their reviews"}])  # fmt: skip
    if impersonates(name):
        raise Invalid("user_name: choose a name that does not look like the shop, its staff or a verification mark",
                      details=[{"field": "user_name", "message": "Please use your own name"}])  # fmt: skip
    return name


def impersonates(name: str) -> bool:
    """Whether a display name passes for the shop, its staff, or a "Verified Buyer" mark."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    words: Iterable[str] = re.findall(r"[a-z0-9]+", plain)
    if any(word in RESERVED_WORDS for word in words):
        return True
    # Spelled apart ("A d m i n", "Verified-Buyer", "1nsight shop"): a reserved run counts when it starts or ends
    # where a word does, so ordinary names that merely contain one ("Badminton") are fine.
    pieces = re.findall(r"[a-z0-9]+", plain.replace("0", "o").replace("1", "i"))
    run, starts, ends, offset = "".join(pieces), set(), set(), 0
    for piece in pieces:
        starts.add(offset)
        offset += len(piece)
        ends.add(offset)
    for part in RESERVED_RUNS:
        at = run.find(part)
        while at != -1:
            if at in starts or at + len(part) in ends:
                return True
            at = run.find(part, at + 1)
    return False


def _check_rating(rating) -> Decimal:
    try:
        value = Decimal(str(rating))
    except Exception:
        value = None
    if value is None or isinstance(rating, bool) or not value.is_finite() or not Decimal(1) <= value <= Decimal(5):
        raise Invalid("rating must be a number from 1 to 5", details=[{"field": "rating", "message": "from 1 to 5"}])
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
