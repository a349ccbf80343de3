"""Admin product management: list, create, edit, soft-delete/restore, per-variant stock. Every change is audited."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from sqlalchemy import func, or_, select

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from ..schemas.validation import row_id
from . import audit, catalog
from .actors import Actor
from .demo_catalog import sku_for
from .errors import Invalid, NotFound
from .search_terms import SYNONYMS, WORD, normalise_text, singular
from .vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, FABRICS, SEASONS, SIZES, normalise_color, normalise_size

AUDITED = (
    "name",
    "description",
    "price",
    "category",
    "clothing_type",
    "color",
    "fabric",
    "season",
    "is_active",
    "image_url",
)
DEFAULT_SIZES = ("S", "M", "L")


@dataclass
class ProductListPage:
    products: list[Product]
    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


def list_products(*, search: str = "", category: str | None = None, status: str = "all", low_stock: bool = False,
                  page: int = 1, per_page: int = 25) -> ProductListPage:  # fmt: skip
    """Every product (inactive too), newest first, filtered by text, category and status."""
    statement = select(Product)
    if search:
        pattern = f"%{search.strip()}%"
        statement = statement.where(or_(Product.name.ilike(pattern), Product.slug.ilike(pattern),
                                        Product.id == (row_id(search) or -1)))  # fmt: skip
    if category:
        statement = statement.where(Product.category == category)
    if status in ("active", "inactive"):
        statement = statement.where(Product.is_active.is_(status == "active"))
    if low_stock:
        statement = statement.where(Product.id.in_(select(ProductVariant.product_id).where(ProductVariant.stock <= 3)))
    total = db.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = db.session.scalars(statement.order_by(Product.id.desc()).limit(per_page).offset((page - 1) * per_page))
    return ProductListPage(list(rows), total, page, per_page)


def create_product(actor: Actor, data: dict) -> Product:
    """A new product from the admin fields (seed 001's admin_product_create, plus clothing_type/fabric/season)."""
    fields = _clean_fields(data, creating=True)
    product = Product(slug=_unique_slug(fields["name"], fields["color"], fields["category"]), is_featured=False,
                      rating=Decimal("0.0"), rating_count=0, **fields)  # fmt: skip
    db.session.add(product)
    db.session.flush()
    _sync_variants(product, data, default_sizes=DEFAULT_SIZES)
    audit.record(actor, "product.create", "product", product.id, after=audit.snapshot(product, AUDITED))
    db.session.commit()
    return product


def update_product(actor: Actor, product_id: int, data: dict) -> Product:
    """Change a product; colours × sizes add the missing variants, stock_quantity sets every variant's stock —
    except with one `size` (and no lists of sizes or colours): then it sets the stock of that size only, in the
    `color` given (which then picks the variant and leaves the product's colour as it is)."""
    product = get_any_product(product_id)
    if _one_variant_stock(data):
        return _set_stock_of(actor, product, data)
    before = audit.snapshot(product, AUDITED) | {"stock": _stock_map(product)}
    for key, value in _clean_fields(data, creating=False).items():
        setattr(product, key, value)
    _sync_variants(product, data, default_sizes=())
    db.session.flush()
    audit.record(actor, "product.update", "product", product.id, before=before,
                 after=audit.snapshot(product, AUDITED) | {"stock": _stock_map(product)})  # fmt: skip
    db.session.commit()
    return product


def _one_variant_stock(data: dict) -> bool:
    return (
        data.get("stock_quantity") is not None
        and bool(data.get("size"))
        and not data.get("available_sizes")
        and not data.get("available_colors")
    )


def _set_stock_of(actor: Actor, product: Product, data: dict) -> Product:
    """stock_quantity for one size (in one colour, when given): those variants only; the other fields as usual."""
    stock = data["stock_quantity"]
    if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0:
        raise Invalid(
            "stock_quantity: a whole number, 0 or more", details=[{"field": "stock_quantity", "message": "≥ 0"}]
        )
    size = normalise_size(str(data["size"]))
    color = normalise_color(str(data["color"])) if data.get("color") else None
    if size is None or (data.get("color") and color is None):
        raise Invalid(f"{product.name} has no such size or colour", details=[{"field": "size", "message": "unknown"}])
    variants = [v for v in product.variants if v.size == size and (color is None or v.color == color)]
    if not variants:
        said = f"{color} / {size}" if color else f"size {size}"
        raise NotFound(f"{product.name} (#{product.id}) has no {said} variant; it comes in "
                       f"{', '.join(product.available_colors)}, sizes {', '.join(product.available_sizes)}")  # fmt: skip
    before = audit.snapshot(product, AUDITED) | {"stock": _stock_map(product)}
    rest = {k: v for k, v in data.items() if k not in ("stock_quantity", "size", "color")}
    for key, value in _clean_fields(rest, creating=False).items():
        setattr(product, key, value)
    for variant in variants:
        variant.stock = stock
    db.session.flush()
    audit.record(actor, "product.update", "product", product.id, before=before,
                 after=audit.snapshot(product, AUDITED) | {"stock": _stock_map(product)})  # fmt: skip
    db.session.commit()
    return product


def set_active(actor: Actor, product_id: int, active: bool) -> Product:
    """Soft-delete (hide from the shop) or restore a product."""
    product = get_any_product(product_id)
    before = {"is_active": product.is_active}
    product.is_active = active
    audit.record(actor, "product.restore" if active else "product.delete", "product", product.id, before=before,
                 after={"is_active": active})  # fmt: skip
    db.session.commit()
    return product


def set_variant_stock(actor: Actor, product_id: int, variant_id: int, stock: int) -> ProductVariant:
    """Set one variant's stock (0 or more)."""
    product = get_any_product(product_id)
    variant = next((v for v in product.variants if v.id == variant_id), None)
    if variant is None:
        raise NotFound(f"Variant {variant_id} is not part of product {product_id}")
    if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0 or stock > 100_000:
        raise Invalid(
            "stock must be a whole number from 0 to 100000", details=[{"field": "stock", "message": "0–100000"}]
        )
    before = {"stock": variant.stock}
    variant.stock = stock
    audit.record(
        actor, "variant.stock", "variant", variant.id, before=before, after={"stock": stock, "sku": variant.sku}
    )
    db.session.commit()
    return variant


def infer_clothing_type(name: str) -> str | None:
    """The shop's clothing type named in a product name ("Oxford Shirt" → shirt, "Chino Trousers" → pants)."""
    words = WORD.findall(normalise_text(name))
    for word in reversed(words):
        for candidate in (word, singular(word)):
            if candidate in CLOTHING_TYPES:
                return candidate
            if candidate == "tshirt":
                return "t-shirt"
            group = SYNONYMS.get(candidate)
            if group:
                kind = "t-shirt" if group[0] == "tshirt" else group[0]
                if kind in CLOTHING_TYPES:
                    return kind
    return None


def _clean_fields(data: dict, *, creating: bool) -> dict:
    fields, problems = {}, []

    def problem(field, message):
        problems.append({"field": field, "message": f"{field}: {message}"})

    for check in (_check_text, _check_price, _check_kind, _check_colors, _check_flags_and_image):
        check(data, fields, problem, creating)
    if problems:
        raise Invalid(f"Invalid product: {problems[0]['message']}", details=problems)
    return fields


def _check_text(data, fields, problem, creating) -> None:
    if "name" in data or creating:
        name = (data.get("name") or "").strip()
        if not name or len(name) > 255:
            problem("name", "required, at most 255 characters")
        fields["name"] = name
    if "description" in data or creating:
        fields["description"] = (data.get("description") or "").strip()[:10000]


def _check_price(data, fields, problem, creating) -> None:
    if "price" not in data and not creating:
        return
    try:
        price = Decimal(str(data.get("price"))).quantize(Decimal("0.01"))
        if not price.is_finite() or price < 0 or price > Decimal("100000"):
            raise InvalidOperation
        fields["price"] = price
    except (InvalidOperation, ValueError, TypeError):
        problem("price", "a number from 0 to 100000")


def _check_kind(data, fields, problem, creating) -> None:
    _enum(data, "category", CATEGORIES, fields, problem, required=creating)
    if creating and not data.get("clothing_type"):
        inferred = infer_clothing_type(data.get("name") or "")
        if inferred is None:
            problem("clothing_type", f"could not tell from the name; one of {', '.join(CLOTHING_TYPES)}")
        fields["clothing_type"] = inferred
    else:
        _enum(data, "clothing_type", CLOTHING_TYPES, fields, problem, required=False)
    _enum(data, "fabric", FABRICS, fields, problem, required=False)
    _enum(data, "season", SEASONS, fields, problem, required=False)


def _check_colors(data, fields, problem, creating) -> None:
    colors = _colors(data, problem)
    if colors:
        fields["color"] = colors[0]
    elif creating:
        problem("color", f"give color or available_colors, from: {', '.join(COLORS)}")


def _check_flags_and_image(data, fields, problem, creating) -> None:
    if "is_active" in data:
        fields["is_active"] = bool(data["is_active"])
    if "image_url" in data:
        url = (data.get("image_url") or "").strip()
        if url and not re.match(r"^(https://|/)[^\s<>\"']{1,499}$", url):
            problem("image_url", "an https:// URL or a path on this site")
        fields["image_url"] = url or None


def _enum(data, field, allowed, fields, problem, *, required: bool) -> None:
    if field not in data and not required:
        return
    value = (data.get(field) or "").strip().lower() if isinstance(data.get(field), str) else data.get(field)
    if value in allowed:
        fields[field] = value
    elif value in (None, "") and not required:
        fields[field] = None
    else:
        problem(field, f"one of {', '.join(allowed)}")


def _colors(data: dict, problem) -> list[str]:
    raw = list(data.get("available_colors") or []) or ([data["color"]] if data.get("color") else [])
    colors = []
    for value in raw:
        color = normalise_color(str(value))
        if color is None:
            problem("available_colors", f"{value!r} is not a shop colour")
        elif color not in colors:
            colors.append(color)
    return colors


def _sizes(data: dict) -> list[str]:
    raw = list(data.get("available_sizes") or []) or ([data["size"]] if data.get("size") else [])
    sizes, bad = [], []
    for value in raw:
        size = normalise_size(str(value))
        if size is None:
            bad.append(value)
        elif size not in sizes:
            sizes.append(size)
    if bad:
        raise Invalid(f"available_sizes: {bad[0]!r} is not a shop size", details=[{"field": "available_sizes",
                      "message": f"sizes are {', '.join(SIZES)}"}])  # fmt: skip
    return sorted(sizes, key=SIZES.index)


def _sync_variants(product: Product, data: dict, *, default_sizes: tuple[str, ...]) -> None:
    colors = _colors(data, lambda *_: None) or product.available_colors
    sizes = _sizes(data) or product.available_sizes or list(default_sizes)
    stock = data.get("stock_quantity")
    if stock is not None and (not isinstance(stock, int) or isinstance(stock, bool) or stock < 0):
        raise Invalid(
            "stock_quantity: a whole number, 0 or more", details=[{"field": "stock_quantity", "message": "≥ 0"}]
        )
    for color in colors:
        for size in sizes:
            if product.variant_for(color, size) is None:
                product.variants.append(
                    ProductVariant(color=color, size=size, sku=sku_for(product.id, color, size), stock=stock or 0)
                )
    if stock is not None:
        for variant in product.variants:
            variant.stock = stock


def _stock_map(product: Product) -> dict:
    return {v.sku: v.stock for v in product.variants}


def _unique_slug(name: str, color: str, category: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", f"{name} {color} {category}".lower()).strip("-")[:200] or "product"
    slug, number = base, 1
    while db.session.scalar(select(Product.id).where(Product.slug == slug)) is not None:
        number += 1
        slug = f"{base}-{number}"
    return slug


def get_any_product(product_id: int) -> Product:
    return catalog.get_product(product_id, include_inactive=True)
