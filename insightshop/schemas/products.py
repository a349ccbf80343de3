"""Product output shape shared by the JSON API and the tools (seed 001 field names, derived from variants)."""

from __future__ import annotations

from flask import url_for

from ..models.catalog import Product, ProductVariant
from ..services.catalog import CatalogPage, Facets
from ..services.pricing import PriceBook
from ..services.search_constraints import matched_color, unmet_reasons

MONEY = {"type": "string", "pattern": r"^\d+\.\d{2}$", "description": "Decimal amount as a string"}

VARIANT_SCHEMA = {
    "type": "object",
    "required": ["id", "sku", "color", "size", "stock", "in_stock"],
    "properties": {
        "id": {"type": "integer"},
        "sku": {"type": "string"},
        "color": {"type": "string"},
        "size": {"type": "string"},
        "stock": {"type": "integer", "minimum": 0},
        "in_stock": {"type": "boolean"},
    },
}

PRODUCT_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "name",
        "slug",
        "price",
        "currency",
        "category",
        "clothing_type",
        "color",
        "available_colors",
        "available_sizes",
        "stock_quantity",
        "variants",
        "image_url",
        "url",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "slug": {"type": "string"},
        "description": {"type": "string"},
        "price": MONEY,
        "list_price": MONEY,
        "on_sale": {"type": "boolean"},
        "sale": {"type": ["object", "null"]},
        "currency": {"type": "string"},
        "category": {"type": "string", "enum": ["men", "women", "kids"]},
        "clothing_type": {"type": "string"},
        "color": {"type": "string"},
        "size": {"type": ["string", "null"], "description": "The only size, when the product has one size"},
        "fabric": {"type": ["string", "null"]},
        "season": {"type": ["string", "null"]},
        "available_colors": {"type": "array", "items": {"type": "string"}},
        "available_sizes": {"type": "array", "items": {"type": "string"}},
        "stock_quantity": {"type": "integer", "minimum": 0},
        "in_stock": {"type": "boolean"},
        "rating": {"type": "number"},
        "rating_count": {"type": "integer"},
        "is_active": {"type": "boolean"},
        "image_url": {"type": "string"},
        "url": {"type": "string"},
        "matched_color": {"type": "string", "description": "The colour the search asked for (its picture shows it)"},
        "variants": {"type": "array", "items": VARIANT_SCHEMA},
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    },
}


def variant_to_dict(variant: ProductVariant) -> dict:
    return {
        "id": variant.id,
        "sku": variant.sku,
        "color": variant.color,
        "size": variant.size,
        "stock": variant.stock,
        "in_stock": variant.in_stock,
    }


def product_to_dict(product: Product, book: PriceBook | None = None, *, matched_color: str | None = None) -> dict:
    """A product as the API and the tools show it (prices as of now, sales applied); with matched_color (the
    colour a search asked for), the picture shows that colour."""
    sizes = product.available_sizes
    price = (book or PriceBook()).price_of(product)
    image_args = {"color": matched_color} if matched_color and matched_color != product.color else {}
    extra = {"matched_color": matched_color} if matched_color else {}
    return {
        "id": product.id,
        "name": product.name,
        "slug": product.slug,
        "description": product.description,
        "price": f"{price.price:.2f}",
        "list_price": f"{price.list_price:.2f}",
        "on_sale": price.on_sale,
        "sale": {
            "id": price.sale.id,
            "name": price.sale.name,
            "discount_percentage": float(price.sale.discount_percentage),
        }
        if price.on_sale
        else None,
        "currency": "USD",
        "category": product.category,
        "clothing_type": product.clothing_type,
        "color": product.color,
        "size": sizes[0] if len(sizes) == 1 else None,
        "fabric": product.fabric,
        "season": product.season,
        "available_colors": product.available_colors,
        "available_sizes": sizes,
        "stock_quantity": product.stock_quantity,
        "in_stock": product.stock_quantity > 0,
        "rating": float(product.rating),
        "rating_count": product.rating_count,
        "is_active": product.is_active,
        "image_url": url_for("shop.product_image", product_id=product.id, **image_args),
        "url": url_for("shop.show_product", product_id=product.id, **image_args),
        "variants": [variant_to_dict(v) for v in product.variants],
        "created_at": product.created_at.isoformat(),
        "updated_at": product.updated_at.isoformat(),
        **extra,
    }


def page_to_dict(page: CatalogPage) -> dict:
    """A page of products meeting every constraint, the closest others (`suggestions`, each with `unmet`),
    pagination metadata and how the request was read."""
    book = PriceBook()
    wanted = page.wanted
    count = page.total
    products = [product_to_dict(p, book, matched_color=_matched(p, wanted)) for p in page.products]
    suggestions = [
        {
            **product_to_dict(s.product, book, matched_color=_matched(s.product, wanted)),
            "unmet": s.unmet,
            "unmet_reasons": unmet_reasons(s.product, s.unmet, wanted),
        }
        for s in page.suggestions
    ]
    if count:
        summary = f"{count} {page.description}" if count != 1 else f"1 match: {page.description}"
    else:
        summary = f"No {page.description}." + (" The closest products are in suggestions." if suggestions else "")
    return {
        "products": products,
        "suggestions": suggestions,
        "summary": summary,
        "pagination": {
            "page": page.page,
            "per_page": page.per_page,
            "total": page.total,
            "pages": page.pages,
            "has_next": page.has_next,
            "has_prev": page.has_prev,
        },
        "interpreted_as": {
            "terms": [list(group) for group in page.parsed.groups],
            "categories": list(wanted.category or ()),
            "sizes": list(wanted.size or ()),
            "colors": list(wanted.color or ()),
            "clothing_types": list(wanted.clothing_type or ()),
            "min_price": None if wanted.min_price is None else f"{wanted.min_price:.2f}",
            "max_price": None if wanted.max_price is None else f"{wanted.max_price:.2f}",
            "on_sale": wanted.on_sale,
            "in_stock": wanted.in_stock,
            "constraints": wanted.stated(),
            "description": page.description,
            "broadened": page.broadened,
        },
    }


def _matched(product: Product, wanted) -> str | None:
    return matched_color(product, wanted) if wanted.color else None


def facets_to_dict(facets: Facets) -> dict:
    return {
        "facets": {
            name: [{"value": v.value, "count": v.count, "selected": v.selected} for v in values]
            for name, values in facets.values.items()
        },
        "price_ranges": [
            {
                "min_price": f"{band.min_price:.2f}",
                "max_price": None if band.max_price is None else f"{band.max_price:.2f}",
                "count": band.count,
                "selected": band.selected,
            }
            for band in facets.price_bands
        ],
    }
