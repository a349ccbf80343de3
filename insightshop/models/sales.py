"""Sales: a percentage off, in a date window, for the whole shop or a scope (categories, types, products)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import JSON, CheckConstraint, Date, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .base import TimestampMixin


class Sale(TimestampMixin, db.Model):
    __tablename__ = "sales"
    __table_args__ = (
        CheckConstraint("discount_percentage >= 0 AND discount_percentage <= 100", name="discount_range"),
        CheckConstraint("end_date >= start_date", name="window_order"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    slug: Mapped[str | None] = mapped_column(String(255), unique=True)  # set for the recurring holiday sales
    description: Mapped[str] = mapped_column(Text, default="")
    discount_percentage: Mapped[Decimal] = mapped_column(Numeric(5, 2))
    start_date: Mapped[date] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    is_active: Mapped[bool] = mapped_column(default=False)
    auto_activate: Mapped[bool] = mapped_column(default=True)
    categories: Mapped[list | None] = mapped_column(JSON)
    clothing_types: Mapped[list | None] = mapped_column(JSON)
    product_ids: Mapped[list | None] = mapped_column(JSON)

    def runs_on(self, day: date) -> bool:
        return self.is_active and self.start_date <= day <= self.end_date

    def applies_to(self, product) -> bool:
        """Whether the sale's scope covers a product (no scope: everything)."""
        return (
            (not self.categories or product.category in self.categories)
            and (not self.clothing_types or product.clothing_type in self.clothing_types)
            and (not self.product_ids or product.id in self.product_ids)
        )
