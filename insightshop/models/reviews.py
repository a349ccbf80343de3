"""Product reviews by users or guests (one per author per product, editable); verified purchases count."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Numeric, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .accounts import User
from .base import TimestampMixin


class Review(TimestampMixin, db.Model):
    __tablename__ = "reviews"
    __table_args__ = (
        UniqueConstraint("product_id", "user_id"),
        UniqueConstraint("product_id", "guest_id"),
        CheckConstraint("rating >= 1 AND rating <= 5", name="rating_range"),
        CheckConstraint("user_id IS NOT NULL OR guest_name IS NOT NULL", name="has_author"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    product_id: Mapped[int] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    guest_name: Mapped[str | None] = mapped_column(String(255))
    guest_id: Mapped[str | None] = mapped_column(String(64), index=True)  # the guest (cart) identity that wrote it
    # Set when the author has a paid (or later) order containing the product; only these count in the rating.
    is_verified_purchase: Mapped[bool] = mapped_column(default=False, server_default=false())
    rating: Mapped[Decimal] = mapped_column(Numeric(2, 1))
    comment: Mapped[str] = mapped_column(Text, default="")

    user: Mapped[User | None] = relationship(lazy="joined")
    product: Mapped[Product] = relationship()  # noqa: F821 (the catalog module imports this one)

    @property
    def author_name(self) -> str:
        if self.user is not None:
            return self.user.first_name or self.user.display_name
        return self.guest_name or "Guest"
