"""Admin request bodies (seed 001 admin tools 13–21, extended where the panel needs more) and output shapes."""

from __future__ import annotations

from ..models.accounts import User
from ..models.orders import PaymentLog
from ..models.sales import Sale
from ..services.vocabulary import CATEGORIES, CLOTHING_TYPES, FABRICS, SEASONS
from .shop import user_to_dict

_PRODUCT_FIELDS = {
    "name": {"type": "string", "minLength": 1, "maxLength": 255},
    "description": {"type": "string", "maxLength": 10000},
    "price": {"type": "number", "minimum": 0},
    "category": {"type": "string", "enum": list(CATEGORIES)},
    "stock_quantity": {"type": "integer", "minimum": 0},
    "color": {"type": "string", "maxLength": 50},
    "size": {"type": "string", "maxLength": 20},
    "available_colors": {"type": "array", "items": {"type": "string"}},
    "available_sizes": {"type": "array", "items": {"type": "string"}},
    "image_url": {"type": "string", "maxLength": 500},
    "is_active": {"type": "boolean"},
    "clothing_type": {"type": "string", "enum": list(CLOTHING_TYPES)},
    "fabric": {"type": "string", "enum": list(FABRICS)},
    "season": {"type": "string", "enum": list(SEASONS)},
}
PRODUCT_CREATE_BODY = {
    "type": "object",
    "required": ["name", "price", "category"],
    "additionalProperties": False,
    "properties": _PRODUCT_FIELDS,
}
PRODUCT_UPDATE_BODY = {"type": "object", "additionalProperties": False, "properties": _PRODUCT_FIELDS}
VARIANT_UPDATE_BODY = {
    "type": "object",
    "required": ["stock"],
    "additionalProperties": False,
    "properties": {"stock": {"type": "integer", "minimum": 0, "maximum": 100000}},
}
ORDER_STATUS_UPDATE_BODY = {
    "type": "object",
    "required": ["status"],
    "additionalProperties": False,
    "properties": {
        "status": {"type": "string", "enum": ["pending", "paid", "processing", "shipped", "delivered", "cancelled"]},
        "carrier": {"type": "string", "maxLength": 50},
        "tracking_number": {"type": "string", "maxLength": 100},
        "note": {"type": "string", "maxLength": 500},
    },
}
SALE_CREATE_BODY = {
    "type": "object",
    "required": ["name", "discount_percentage", "start_date", "end_date"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 255},
        "description": {"type": "string", "maxLength": 1000},
        "discount_percentage": {"type": "number", "minimum": 0, "maximum": 100},
        "start_date": {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        "end_date": {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        "is_active": {"type": "boolean"},
        "auto_activate": {"type": "boolean"},
        "categories": {"type": "array", "items": {"type": "string", "enum": list(CATEGORIES)}, "uniqueItems": True},
        "clothing_types": {
            "type": "array",
            "items": {"type": "string", "enum": list(CLOTHING_TYPES)},
            "uniqueItems": True,
        },
        "product_ids": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 1000},
    },
}
SALE_UPDATE_BODY = {k: v for k, v in SALE_CREATE_BODY.items() if k != "required"}

ROLE_BODY = {
    "type": "object",
    "required": ["is_admin"],
    "additionalProperties": False,
    "properties": {"is_admin": {"type": "boolean"}, "is_superadmin": {"type": "boolean"}},
}
DISABLE_BODY = {
    "type": "object",
    "required": ["disabled"],
    "additionalProperties": False,
    "properties": {"disabled": {"type": "boolean"}},
}
RETURN_DECISION_BODY = {
    "type": "object",
    "required": ["approve"],
    "additionalProperties": False,
    "properties": {"approve": {"type": "boolean"}, "note": {"type": "string", "maxLength": 1000}},
}


def sale_to_dict(sale: Sale) -> dict:
    return {
        "id": sale.id,
        "name": sale.name,
        "description": sale.description,
        "discount_percentage": float(sale.discount_percentage),
        "start_date": sale.start_date.isoformat(),
        "end_date": sale.end_date.isoformat(),
        "is_active": sale.is_active,
        "auto_activate": sale.auto_activate,
        "categories": sale.categories or [],
        "clothing_types": sale.clothing_types or [],
        "product_ids": sale.product_ids or [],
    }


def admin_user_to_dict(user: User) -> dict:
    return {**user_to_dict(user), "is_disabled": user.is_disabled,
            "last_login_at": user.last_login_at.isoformat() if user.last_login_at else None}  # fmt: skip


def payment_to_dict(log: PaymentLog) -> dict:
    return {
        "id": log.id, "order_id": log.order_id, "provider": log.provider, "kind": log.kind, "amount": f"{log.amount:.2f}",
        "currency": log.currency, "status": log.status, "intent_id": log.intent_id, "card_brand": log.card_brand,
        "card_last4": log.card_last4, "error_message": log.error_message, "created_at": log.created_at.isoformat(),
    }  # fmt: skip
