"""Catalog request shapes: browse query parameters and the product-search body (seed 001's search_products)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from werkzeug.datastructures import MultiDict

from ..services.catalog import FACET_VOCABULARY, FACETS, CatalogQuery
from ..services.errors import Invalid
from ..services.search_terms import canonical_clothing_type
from ..services.vocabulary import (
    CATEGORIES,
    CLOTHING_TYPES,
    SORTS,
    normalise_color,
    normalise_size,
)  # fmt: skip
from .validation import validate, whole_number

MAX_PER_PAGE = 100
MAX_PAGE = 10_000

_ENUMS = FACET_VOCABULARY

BROWSE_PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "q": {"type": "string", "maxLength": 500},
        **{
            facet: {"type": "array", "maxItems": 20, "items": {"type": "string", "enum": list(values)}}
            for facet, values in _ENUMS.items()
        },
        "min_price": {"type": "number", "minimum": 0, "maximum": 100000},
        "max_price": {"type": "number", "minimum": 0, "maximum": 100000},
        "in_stock": {"type": "boolean"},
        "on_sale": {"type": "boolean"},
        "sort": {"type": "string", "enum": list(SORTS)},
        "page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
        "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE},
    },
}

SEARCH_BODY_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "query": {"type": "string", "maxLength": 500},
        "category": {"type": "string", "enum": [*CATEGORIES, ""]},
        "size": {"type": "string", "maxLength": 20},
        "color": {"type": "string", "maxLength": 50},
        "clothing_type": {"type": "string", "maxLength": 50},
        "min_price": {"type": "number", "minimum": 0, "maximum": 100000},
        "max_price": {"type": "number", "minimum": 0, "maximum": 100000},
        "on_sale": {"type": "boolean"},
        "in_stock": {"type": "boolean"},
        "sort_by": {"type": "string", "enum": list(SORTS)},
        "page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
        "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE},
    },
}

_INTEGER_PARAMS = ("page", "per_page")
_NUMBER_PARAMS = ("min_price", "max_price")


def browse_params(args: MultiDict, *, strict: bool, default_per_page: int = 24) -> CatalogQuery:
    """Query-string parameters → CatalogQuery. Strict (API) rejects bad values; lenient (pages) drops them."""
    data: dict = {}
    for key in args:
        if key in _ENUMS:
            values = [v.strip() for raw in args.getlist(key) for v in raw.split(",") if v.strip()]
            data[key] = [_normalise(key, v) for v in values]
        else:
            value = _coerce(key, args.get(key, ""))
            if value is not None:
                data[key] = value
    if not strict:
        data = _drop_invalid(data)
    validate(data, BROWSE_PARAMS_SCHEMA, what="query parameters")
    _check_price_range(data)
    return CatalogQuery(
        text=data.get("q", "").strip(),
        **{facet: tuple(dict.fromkeys(data.get(facet, ()))) for facet in FACETS},
        min_price=_decimal(data.get("min_price")),
        max_price=_decimal(data.get("max_price")),
        in_stock=data.get("in_stock", False),
        on_sale=data.get("on_sale", False),
        sort=data.get("sort", "relevance"),
        page=data.get("page", 1),
        per_page=data.get("per_page", default_per_page),
    )


def search_body(body: dict) -> CatalogQuery:
    """A validated search_products body → CatalogQuery."""
    validate(body, SEARCH_BODY_SCHEMA, what="search")
    size = _checked(body.get("size"), normalise_size, "size", "is not a shop size (XS, S, M, L, XL, XXL)")
    color = _checked(body.get("color"), normalise_color, "color", "is not a shop colour")
    kind = _checked(body.get("clothing_type"), canonical_clothing_type, "clothing_type",
                    f"is not something the shop sells ({', '.join(CLOTHING_TYPES)})")  # fmt: skip
    _check_price_range(body)
    return CatalogQuery(
        text=(body.get("query") or "").strip(),
        category=(body["category"],) if body.get("category") else (),
        clothing_type=(kind,) if kind else (),
        size=(size,) if size else (),
        color=(color,) if color else (),
        min_price=_decimal(body.get("min_price")),
        max_price=_decimal(body.get("max_price")),
        on_sale=bool(body.get("on_sale")),
        in_stock=bool(body.get("in_stock")),
        sort=body.get("sort_by", "relevance"),
        page=body.get("page", 1),
        per_page=body.get("per_page", 24),
    )


def _normalise(facet: str, value: str) -> str:
    if facet == "size":
        return normalise_size(value) or value
    if facet == "color":
        return normalise_color(value) or value
    return value.lower()


def _coerce(key: str, raw: str):
    """Turn query-string text into JSON types; leave it as text when it doesn't parse, so the schema names it."""
    raw = raw.strip()
    if key in _INTEGER_PARAMS:
        number = whole_number(raw)
        return raw if number is None else number
    if key in _NUMBER_PARAMS:
        if raw == "":
            return None
        try:
            number = float(Decimal(raw))
        except (InvalidOperation, ValueError):
            return raw
        return number if number == number and abs(number) != float("inf") else raw
    if key in ("in_stock", "on_sale"):
        return {"1": True, "true": True, "on": True, "yes": True, "0": False, "false": False, "": False}.get(
            raw.lower(), raw
        )
    return raw


def _drop_invalid(data: dict) -> dict:
    kept = {}
    for key, value in data.items():
        if key not in BROWSE_PARAMS_SCHEMA["properties"] or value is None:
            continue
        if key in _ENUMS:
            value = [v for v in value if v in _ENUMS[key]]
        try:
            validate({key: value}, BROWSE_PARAMS_SCHEMA)
        except Invalid:
            continue
        kept[key] = value
    return kept


def _check_price_range(data: dict) -> None:
    low, high = data.get("min_price"), data.get("max_price")
    if low is not None and high is not None and low > high:
        raise Invalid(
            "min_price must not be greater than max_price",
            details=[{"field": "min_price", "message": "min_price must not be greater than max_price"}],
        )


def _checked(value, normaliser, field: str, problem: str):
    if value in (None, ""):
        return None
    normalised = normaliser(value)
    if normalised is None:
        message = f"{field}: {value!r} {problem}"
        raise Invalid(f"Invalid search: {message}", details=[{"field": field, "message": message}])
    return normalised


def _decimal(value) -> Decimal | None:
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))
