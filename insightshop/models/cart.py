"""Cart lines (owned by a user or a guest) and wishlist entries."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .base import Money, TimestampMixin
from .catalog import Product, ProductVariant

MAX_LINE_QUANTITY = 10


class CartItem(TimestampMixin, db.Model):
    __tablename__ = "cart_items"
    __table_args__ = (
        UniqueConstraint("user_id", "variant_id"),
        UniqueConstraint("guest_id", "variant_id"),
        CheckConstraint("quantity BETWEEN 1 AND 10", name="quantity_range"),
        CheckConstraint("(user_id IS NULL) <> (guest_id IS NULL)", name="one_owner"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64), index=True)
    variant_id: Mapped[int] = mapped_column(ForeignKey("product_variants.id", ondelete="CASCADE"))
    quantity: Mapped[int] = mapped_column(Integer)

    variant: Mapped[ProductVariant] = relationship(lazy="joined")

    @property
    def product(self) -> Product:
        return self.variant.product


class WishlistItem(TimestampMixin, db.Model):
    __tablename__ = "wishlist_items"
    __table_args__ = (UniqueConstraint("user_id", "product_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    product_id: Mapped[int] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"))
    saved_price: Mapped[Decimal] = mapped_column(Money)
    saved_in_stock: Mapped[bool] = mapped_column(default=True)

    product: Mapped[Product] = relationship(lazy="joined")
