"""Admin request bodies (seed 001 admin tools 13–21, extended where the panel needs more) and output shapes."""

from __future__ import annotations

from ..models.accounts import User
from ..models.orders import ORDER_STATUSES, PaymentLog
from ..models.sales import Sale
from ..services.vocabulary import CATEGORIES, CLOTHING_TYPES, FABRICS, SEASONS
from .orders import CURRENCY
from .products import DATE_TIME, MONEY, NULLABLE_STRING
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


DATE = {"type": "string", "format": "date"}
STRING_LIST = {"type": "array", "items": {"type": "string"}}
NULLABLE_OBJECT = {"type": ["object", "null"]}

SALE_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "name",
        "description",
        "discount_percentage",
        "start_date",
        "end_date",
        "is_active",
        "auto_activate",
        "categories",
        "clothing_types",
        "product_ids",
    ],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "discount_percentage": {"type": "number", "minimum": 0, "maximum": 100},
        "start_date": DATE,
        "end_date": DATE,
        "is_active": {"type": "boolean"},
        "auto_activate": {"type": "boolean"},
        "categories": {**STRING_LIST, "description": "Empty: every category"},
        "clothing_types": {**STRING_LIST, "description": "Empty: every clothing type"},
        "product_ids": {"type": "array", "items": {"type": "integer"}, "description": "Empty: every product"},
    },
}
ADMIN_USER_SCHEMA = {
    "allOf": [
        {"$ref": "#/components/schemas/User"},
        {
            "type": "object",
            "required": ["is_disabled", "last_login_at"],
            "properties": {
                "is_disabled": {"type": "boolean"},
                "last_login_at": {"anyOf": [DATE_TIME, {"type": "null"}]},
            },
        },
    ]
}
PAYMENT_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "order_id",
        "provider",
        "kind",
        "amount",
        "currency",
        "status",
        "intent_id",
        "card_brand",
        "card_last4",
        "error_message",
        "created_at",
    ],
    "properties": {
        "id": {"type": "integer"},
        "order_id": {"type": ["integer", "null"]},
        "provider": {"type": "string", "enum": ["offline", "stripe"]},
        "kind": {"type": "string", "enum": ["payment", "refund"]},
        "amount": MONEY,
        "currency": CURRENCY,
        "status": {"type": "string", "description": "The provider's status, e.g. succeeded, declined, failed"},
        "intent_id": NULLABLE_STRING,
        "card_brand": NULLABLE_STRING,
        "card_last4": {"type": ["string", "null"], "pattern": "^[0-9]{4}$"},
        "error_message": NULLABLE_STRING,
        "created_at": DATE_TIME,
    },
}
ACTIVE_CART_SCHEMA = {
    "type": "object",
    "required": ["owner", "user_id", "guest_id", "lines", "units", "value", "last_activity"],
    "properties": {
        "owner": {"type": "string", "description": "The user's email, or 'guest' and the start of the guest id"},
        "user_id": {"type": ["integer", "null"]},
        "guest_id": NULLABLE_STRING,
        "lines": {"type": "integer", "minimum": 1},
        "units": {"type": "integer", "minimum": 1},
        "value": MONEY,
        "last_activity": DATE_TIME,
    },
}
AUDIT_ENTRY_SCHEMA = {
    "type": "object",
    "required": ["id", "at", "actor", "action", "target_type", "target_id", "before", "after", "outcome"],
    "properties": {
        "id": {"type": "integer"},
        "at": DATE_TIME,
        "actor": {"type": "string"},
        "action": {"type": "string", "examples": ["product.update", "tool.cart_add_item"]},
        "target_type": {"type": "string"},
        "target_id": NULLABLE_STRING,
        "before": NULLABLE_OBJECT,
        "after": NULLABLE_OBJECT,
        "outcome": {"type": "string", "enum": ["ok", "proposed", "refused", "error"]},
    },
}
SALE_PREVIEW_SCHEMA = {
    "type": "object",
    "required": ["sale", "products_covered", "sample"],
    "properties": {
        "sale": {"$ref": "#/components/schemas/Sale"},
        "products_covered": {"type": "integer", "minimum": 0},
        "sample": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["product_id", "name", "price", "sale_price"],
                "properties": {
                    "product_id": {"type": "integer"},
                    "name": {"type": "string"},
                    "price": MONEY,
                    "sale_price": MONEY,
                },
            },
        },
    },
}
DASHBOARD_SCHEMA = {
    "type": "object",
    "required": ["revenue_by_day", "orders_by_status", "top_products", "low_stock"],
    "properties": {
        "revenue_by_day": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["day", "revenue", "orders"],
                "properties": {"day": DATE, "revenue": MONEY, "orders": {"type": "integer", "minimum": 0}},
            },
        },
        "orders_by_status": {
            "type": "object",
            "required": list(ORDER_STATUSES),
            "properties": {status: {"type": "integer", "minimum": 0} for status in ORDER_STATUSES},
        },
        "top_products": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "units", "revenue"],
                "properties": {"name": {"type": "string"}, "units": {"type": "integer"}, "revenue": MONEY},
            },
        },
        "low_stock": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["sku", "product_id", "stock"],
                "properties": {
                    "sku": {"type": "string"},
                    "product_id": {"type": "integer"},
                    "stock": {"type": "integer", "minimum": 0},
                },
            },
        },
    },
}
AUTOMATION_REPORT_SCHEMA = {
    "type": "object",
    "required": ["created", "activated", "deactivated"],
    "properties": {
        name: {**STRING_LIST, "description": "Names of the sales"} for name in ("created", "activated", "deactivated")
    },
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
