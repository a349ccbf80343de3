"""An admin's stock by variant: read it (products found by id, kind, department, colour or name; variants by colour
and size), change it by a number of units or set it to a number, and list what is low or out of stock."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from . import audit
from .admin_products import get_any_product
from .errors import Invalid, NotFound
from .vocabulary import SIZES, normalise_color, normalise_size

MAX_STOCK = 100_000
MAX_PRODUCTS = 20


@dataclass
class StockRow:
    variant: ProductVariant
    before: int
    after: int


@dataclass
class StockChange:
    product: Product
    rows: list[StockRow]


def _variant_filters(color: str | None, size: str | None) -> tuple[str | None, str | None]:
    wanted_color = normalise_color(color) if color else None
    wanted_size = normalise_size(size) if size else None
    if color and wanted_color is None:
        raise Invalid(f"{color!r} is not a shop colour", details=[{"field": "color", "message": "unknown"}])
    if size and wanted_size is None:
        raise Invalid(
            f"{size!r} is not a shop size", details=[{"field": "size", "message": f"one of {', '.join(SIZES)}"}]
        )
    return wanted_color, wanted_size


def find_products(*, product_ids: list[int] | None = None, clothing_type: str | None = None,
                  category: str | None = None, name: str | None = None, color: str | None = None,
                  include_inactive: bool = True, limit: int = MAX_PRODUCTS) -> list[Product]:  # fmt: skip
    """Products by id, or by kind, department, name words and colour (inactive ones too unless told), by id."""
    statement = select(Product)
    if product_ids:
        statement = statement.where(Product.id.in_(product_ids))
    if clothing_type:
        statement = statement.where(Product.clothing_type == clothing_type)
    if category:
        statement = statement.where(Product.category == category)
    if name:
        for word in name.split()[:6]:
            statement = statement.where(Product.name.ilike(f"%{word}%"))
    if not include_inactive:
        statement = statement.where(Product.is_active)
    wanted_color, _ = _variant_filters(color, None)
    if wanted_color:
        statement = statement.where(
            Product.id.in_(select(ProductVariant.product_id).where(ProductVariant.color == wanted_color))
        )
    return list(db.session.scalars(statement.order_by(Product.id).limit(limit)))


def variants_of(product: Product, color: str | None = None, size: str | None = None) -> list[ProductVariant]:
    """The product's variants in a colour and size (either may be None: every one), smallest size first."""
    wanted_color, wanted_size = _variant_filters(color, size)
    found = [v for v in product.variants if wanted_color in (None, v.color) and wanted_size in (None, v.size)]
    return sorted(found, key=lambda v: (v.color, SIZES.index(v.size) if v.size in SIZES else 99))


def _new_stock(before: int, change: int | None, set_to: int | None) -> int:
    return set_to if set_to is not None else before + (change or 0)


def plan_stock_change(product_id: int, *, change: int | None = None, set_to: int | None = None,
                      color: str | None = None, size: str | None = None) -> StockChange:  # fmt: skip
    """What a stock change would do, without doing it: each variant's stock before and after. Refused: no change or
    both, a variant that does not exist, a result below 0 or above 100000."""
    if (change is None) == (set_to is None):
        raise Invalid("Say either change (units to add or remove) or set_to (the new stock)",
                      details=[{"field": "change", "message": "exactly one of change, set_to"}])  # fmt: skip
    if change == 0:
        raise Invalid("A change of 0 units changes nothing", details=[{"field": "change", "message": "not 0"}])
    product = get_any_product(product_id)
    variants = variants_of(product, color, size)
    if not variants:
        said = " / ".join(x for x in (color, size) if x) or "any"
        raise NotFound(f"{product.name} (#{product.id}) has no {said} variant; it comes in "
                       f"{', '.join(product.available_colors)}, sizes {', '.join(product.available_sizes)}")  # fmt: skip
    rows = [StockRow(v, v.stock, _new_stock(v.stock, change, set_to)) for v in variants]
    short = [r for r in rows if r.after < 0]
    if short:
        row = short[0]
        raise Invalid(f"{product.name} {row.variant.color} / {row.variant.size} has only {row.before} in stock; "
                      f"removing {-(change or 0)} would leave {row.after}", code="insufficient_stock",
                      details=[{"field": "change", "sku": row.variant.sku, "stock": row.before}])  # fmt: skip
    if any(r.after > MAX_STOCK for r in rows):
        raise Invalid(f"Stock can be at most {MAX_STOCK}", details=[{"field": "change", "message": "too large"}])
    return StockChange(product, rows)


def change_stock(actor, product_id: int, *, change: int | None = None, set_to: int | None = None,
                 color: str | None = None, size: str | None = None) -> StockChange:  # fmt: skip
    """Add or remove units (change) or set the stock (set_to) of a product's variants in a colour and size; the
    variants' rows are locked and re-read so two changes at once both count. Audited."""
    planned = plan_stock_change(product_id, change=change, set_to=set_to, color=color, size=size)
    ids = [r.variant.id for r in planned.rows]
    locked = list(db.session.scalars(select(ProductVariant).where(ProductVariant.id.in_(ids))
                                     .with_for_update().execution_options(populate_existing=True)))  # fmt: skip
    rows = []
    for variant in sorted(locked, key=lambda v: ids.index(v.id)):
        after = _new_stock(variant.stock, change, set_to)
        if after < 0:
            raise Invalid(f"Only {variant.stock} of {variant.sku} in stock", code="insufficient_stock")
        rows.append(StockRow(variant, variant.stock, after))
        variant.stock = after
    product = get_any_product(product_id)
    audit.record(actor, "variant.stock", "product", product.id, before={r.variant.sku: r.before for r in rows},
                 after={r.variant.sku: r.after for r in rows})  # fmt: skip
    db.session.commit()
    return StockChange(product, rows)


def stock_report(*, threshold: int = 0, category: str | None = None, clothing_type: str | None = None,
                 limit: int = 50) -> tuple[int, list[ProductVariant]]:  # fmt: skip
    """Variants of active products at or below a stock level (0: out of stock), lowest first, and how many in all."""
    statement = select(ProductVariant).join(Product).where(Product.is_active, ProductVariant.stock <= threshold)
    if category:
        statement = statement.where(Product.category == category)
    if clothing_type:
        statement = statement.where(Product.clothing_type == clothing_type)
    total = db.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = db.session.scalars(statement.order_by(ProductVariant.stock, Product.name, ProductVariant.id).limit(limit))
    return total, list(rows)
