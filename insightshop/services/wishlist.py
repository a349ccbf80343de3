"""Wishlists: products a user saved, with what changed since (price drops, back in stock)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select

from ..extensions import db
from ..models.cart import WishlistItem
from ..models.catalog import Product
from . import catalog, pricing
from .actors import Actor
from .errors import NotFound


@dataclass(frozen=True)
class WishlistEntry:
    item: WishlistItem
    product: Product
    price: Decimal
    saved_price: Decimal
    in_stock: bool

    @property
    def price_drop(self) -> Decimal | None:
        return self.saved_price - self.price if self.price < self.saved_price else None

    @property
    def back_in_stock(self) -> bool:
        return self.in_stock and not self.item.saved_in_stock


def list_wishlist(actor: Actor) -> list[WishlistEntry]:
    """The user's saved products, newest first; products no longer sold are left out."""
    user = actor.require_user()
    items = db.session.scalars(
        select(WishlistItem)
        .where(WishlistItem.user_id == user.id)
        .order_by(WishlistItem.created_at.desc(), WishlistItem.id.desc())
    ).all()
    return [_entry(item) for item in items if item.product.is_active]


def saved_product_ids(actor: Actor) -> set[int]:
    if actor.user is None:
        return set()
    return set(db.session.scalars(select(WishlistItem.product_id).where(WishlistItem.user_id == actor.user.id)))


def add_to_wishlist(actor: Actor, product_id: int) -> WishlistEntry:
    """Save a product (saving it again keeps the first price and stock seen)."""
    user = actor.require_user()
    product = catalog.get_product(product_id)
    item = db.session.scalar(
        select(WishlistItem).where(WishlistItem.user_id == user.id, WishlistItem.product_id == product.id)
    )
    if item is None:
        item = WishlistItem(
            user_id=user.id,
            product=product,
            saved_price=pricing.effective_price(product),
            saved_in_stock=product.stock_quantity > 0,
        )
        db.session.add(item)
        db.session.commit()
    return _entry(item)


def remove_from_wishlist(actor: Actor, product_id: int) -> None:
    """Forget a saved product."""
    user = actor.require_user()
    item = db.session.scalar(
        select(WishlistItem).where(WishlistItem.user_id == user.id, WishlistItem.product_id == product_id)
    )
    if item is None:
        raise NotFound(f"Product {product_id} is not in your wishlist")
    db.session.delete(item)
    db.session.commit()


def _entry(item: WishlistItem) -> WishlistEntry:
    product = item.product
    return WishlistEntry(item, product, pricing.effective_price(product), item.saved_price, product.stock_quantity > 0)
