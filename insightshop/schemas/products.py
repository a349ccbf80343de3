"""Product output shape shared by the JSON API and the tools (seed 001 field names, derived from variants)."""

from __future__ import annotations

from flask import url_for

from ..models.catalog import Product, ProductVariant
from ..services.catalog import CatalogPage, Facets
from ..services.pricing import PriceBook
from ..services.search_constraints import matched_color, unmet_reasons

MONEY = {"type": "string", "pattern": r"^\d+\.\d{2}$", "description": "Decimal amount as a string"}
DATE_TIME = {"type": "string", "format": "date-time"}
NULLABLE_STRING = {"type": ["string", "null"]}
CATEGORY_NAMES = ["men", "women", "kids"]

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
        "description",
        "price",
        "list_price",
        "on_sale",
        "sale",
        "currency",
        "category",
        "clothing_type",
        "color",
        "size",
        "fabric",
        "season",
        "available_colors",
        "available_sizes",
        "stock_quantity",
        "in_stock",
        "rating",
        "rating_count",
        "is_active",
        "image_url",
        "url",
        "variants",
        "created_at",
        "updated_at",
    ],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "slug": {"type": "string"},
        "description": {"type": "string"},
        "price": MONEY,
        "list_price": MONEY,
        "on_sale": {"type": "boolean"},
        "sale": {
            "type": ["object", "null"],
            "description": "The sale that sets the price, when on sale",
            "required": ["id", "name", "discount_percentage"],
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "discount_percentage": {"type": "number", "minimum": 0, "maximum": 100},
            },
        },
        "currency": {"type": "string", "enum": ["USD"]},
        "category": {"type": "string", "enum": CATEGORY_NAMES},
        "clothing_type": {"type": "string"},
        "color": {"type": "string"},
        "size": {"type": ["string", "null"], "description": "The only size, when the product has one size"},
        "fabric": NULLABLE_STRING,
        "season": NULLABLE_STRING,
        "available_colors": {"type": "array", "items": {"type": "string"}},
        "available_sizes": {"type": "array", "items": {"type": "string"}},
        "stock_quantity": {"type": "integer", "minimum": 0},
        "in_stock": {"type": "boolean"},
        "rating": {"type": "number", "minimum": 0, "maximum": 5},
        "rating_count": {"type": "integer", "minimum": 0},
        "is_active": {"type": "boolean"},
        "image_url": {"type": "string"},
        "url": {"type": "string"},
        "matched_color": {"type": "string", "description": "The colour the search asked for (its picture shows it)"},
        "variants": {"type": "array", "items": {"$ref": "#/components/schemas/Variant"}},
        "created_at": DATE_TIME,
        "updated_at": DATE_TIME,
    },
}

PAGINATION_SCHEMA = {
    "type": "object",
    "required": ["page", "per_page", "total", "pages", "has_next", "has_prev"],
    "properties": {
        "page": {"type": "integer", "minimum": 1},
        "per_page": {"type": "integer", "minimum": 1},
        "total": {"type": "integer", "minimum": 0},
        "pages": {"type": "integer", "minimum": 1},
        "has_next": {"type": "boolean"},
        "has_prev": {"type": "boolean"},
    },
}

UNMET_NAMES = ["color", "clothing_type", "category", "size", "min_price", "max_price", "on_sale", "in_stock",
               "fabric", "season", "query"]  # fmt: skip
STRINGS = {"type": "array", "items": {"type": "string"}}

PRODUCT_PAGE_SCHEMA = {
    "type": "object",
    "required": ["products", "suggestions", "summary", "pagination", "interpreted_as"],
    "properties": {
        "products": {
            "type": "array",
            "description": "Only products meeting every stated constraint (filters and what the words name)",
            "items": {"$ref": "#/components/schemas/Product"},
        },
        "suggestions": {
            "type": "array",
            "description": "When there are fewer than 3 products: the closest others, closest first, never matches",
            "items": {
                "allOf": [
                    {"$ref": "#/components/schemas/Product"},
                    {
                        "type": "object",
                        "required": ["unmet", "unmet_reasons"],
                        "properties": {
                            "unmet": {
                                "type": "array",
                                "description": "The constraints this product misses (query: the other search words)",
                                "items": {"type": "string", "enum": UNMET_NAMES},
                            },
                            "unmet_reasons": {**STRINGS, "examples": [["over $50"], ["navy, not red"]]},
                        },
                    },
                ]
            },
        },
        "summary": {
            "type": "string",
            "examples": ["No red dresses under $50. The closest products are in suggestions."],
        },
        "pagination": {"$ref": "#/components/schemas/Pagination"},
        "interpreted_as": {
            "type": "object",
            "description": "How the request was understood: term groups, and the constraints in force",
            "required": [
                "terms",
                "categories",
                "sizes",
                "colors",
                "clothing_types",
                "min_price",
                "max_price",
                "on_sale",
                "in_stock",
                "constraints",
                "description",
                "broadened",
            ],
            "properties": {
                "terms": {"type": "array", "items": STRINGS},
                "categories": STRINGS,
                "sizes": STRINGS,
                "colors": STRINGS,
                "clothing_types": STRINGS,
                "min_price": {"anyOf": [MONEY, {"type": "null"}]},
                "max_price": {"anyOf": [MONEY, {"type": "null"}]},
                "on_sale": {"type": "boolean"},
                "in_stock": {"type": "boolean"},
                "constraints": {"type": "array", "items": {"type": "string", "enum": UNMET_NAMES}},
                "description": {"type": "string", "examples": ["red dresses under $50"]},
                "broadened": {"type": "boolean", "description": "Always false: results are never padded"},
            },
        },
    },
}

FACET_COUNTS_SCHEMA = {
    "type": "object",
    "required": ["facets", "price_ranges"],
    "properties": {
        "facets": {
            "type": "object",
            "description": "Per facet (category, clothing_type, color, size, fabric, season): its values with counts",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["value", "count", "selected"],
                    "properties": {
                        "value": {"type": "string"},
                        "count": {"type": "integer", "minimum": 0},
                        "selected": {"type": "boolean"},
                    },
                },
            },
        },
        "price_ranges": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["min_price", "max_price", "count", "selected"],
                "properties": {
                    "min_price": MONEY,
                    "max_price": {"anyOf": [MONEY, {"type": "null"}], "description": "null: no upper bound"},
                    "count": {"type": "integer", "minimum": 0},
                    "selected": {"type": "boolean"},
                },
            },
        },
    },
}


def pagination_to_dict(page) -> dict:
    """The Pagination shape of any page with page, per_page, total and pages (catalog and admin lists alike)."""
    return {
        "page": page.page,
        "per_page": page.per_page,
        "total": page.total,
        "pages": page.pages,
        "has_next": page.page < page.pages,
        "has_prev": page.page > 1,
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
        "pagination": pagination_to_dict(page),
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
