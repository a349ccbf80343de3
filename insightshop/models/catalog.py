"""Catalog: products and their sellable variants (stock lives on the variant)."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from ..services.vocabulary import SIZES
from .base import Money, TimestampMixin


class Product(TimestampMixin, db.Model):
    __tablename__ = "products"
    __table_args__ = (
        CheckConstraint("price >= 0", name="price_not_negative"),
        CheckConstraint("category IN ('men', 'women', 'kids')", name="category_known"),
        Index("ix_products_active_category_type", "is_active", "category", "clothing_type"),
        Index("ix_products_created_at", "created_at"),
        Index("ix_products_price", "price"),
        Index("ix_products_rating", "rating", "rating_count"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    slug: Mapped[str] = mapped_column(String(255), unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    price: Mapped[Decimal] = mapped_column(Money)
    category: Mapped[str] = mapped_column(String(16))
    clothing_type: Mapped[str] = mapped_column(String(32))
    color: Mapped[str] = mapped_column(String(32))
    fabric: Mapped[str | None] = mapped_column(String(32))
    season: Mapped[str | None] = mapped_column(String(32))
    is_active: Mapped[bool] = mapped_column(default=True)
    is_featured: Mapped[bool] = mapped_column(default=False)
    image_url: Mapped[str | None] = mapped_column(String(500))  # an uploaded picture; the generated one otherwise
    rating: Mapped[Decimal] = mapped_column(Numeric(2, 1), default=Decimal("0.0"))
    rating_count: Mapped[int] = mapped_column(Integer, default=0)

    variants: Mapped[list[ProductVariant]] = relationship(
        back_populates="product",
        cascade="all, delete-orphan",
        order_by="ProductVariant.id",
        lazy="selectin",
    )

    @property
    def available_colors(self) -> list[str]:
        """Colours this product is made in, primary colour first."""
        return offered_colors(self.color, [v.color for v in self.variants])

    @property
    def available_sizes(self) -> list[str]:
        """Sizes offered in any colour, smallest first."""
        return offered_sizes(v.size for v in self.variants)

    @property
    def stock_quantity(self) -> int:
        return sum(v.stock for v in self.variants)

    def variant_for(self, color: str, size: str) -> ProductVariant | None:
        return next((v for v in self.variants if v.color == color and v.size == size), None)

    def __repr__(self) -> str:
        return f"<Product {self.id} {self.slug}>"


def offered_colors(primary: str, variant_colors: list[str]) -> list[str]:
    """The colours of a product whose variants (in id order) have these colours: the primary colour first."""
    colors = [primary] if primary in variant_colors else []
    for color in variant_colors:
        if color not in colors:
            colors.append(color)
    return colors or [primary]


def offered_sizes(variant_sizes) -> list[str]:
    """The sizes of a product whose variants have these sizes, smallest first."""
    sizes = set(variant_sizes)
    return [s for s in SIZES if s in sizes]


class ProductVariant(db.Model):
    __tablename__ = "product_variants"
    __table_args__ = (
        UniqueConstraint("product_id", "color", "size"),
        CheckConstraint("stock >= 0", name="stock_not_negative"),
        Index("ix_product_variants_color_product", "color", "product_id"),
        Index("ix_product_variants_size_product", "size", "product_id", "stock"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    product_id: Mapped[int] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"), index=True)
    color: Mapped[str] = mapped_column(String(32))
    size: Mapped[str] = mapped_column(String(8))
    sku: Mapped[str] = mapped_column(String(64), unique=True)
    stock: Mapped[int] = mapped_column(Integer, default=0)

    product: Mapped[Product] = relationship(back_populates="variants")

    @property
    def in_stock(self) -> bool:
        return self.stock > 0

    def __repr__(self) -> str:
        return f"<ProductVariant {self.sku} stock={self.stock}>"
