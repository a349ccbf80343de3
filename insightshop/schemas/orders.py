"""Order, payment and return request bodies (seed 001: checkout_proceed, order_status, order_track) and shapes."""

from __future__ import annotations

from flask import url_for

from ..models.orders import ORDER_STATUSES, Order, ReturnRequest
from ..services.order_timeline import timeline_dicts
from .products import DATE_TIME, MONEY, NULLABLE_STRING

# One subtotal rule (the cart, the pages, mail, PDF and this API agree): the lines at the prices paid; the sale's
# saving is said beside it, already taken off.
SUBTOTAL = {**MONEY, "description": "The lines at the prices paid (any sale already taken off)."}
SALE_SAVING = {
    **MONEY,
    "description": "What sales took off the list prices; already in subtotal, never subtracted again.",
}

CHECKOUT_BODY = {
    "type": "object",
    "required": ["shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip", "email"],
    "additionalProperties": False,
    "properties": {
        "email": {"type": "string", "format": "email", "maxLength": 255},
        "shipping_name": {"type": "string", "minLength": 1, "maxLength": 255},
        "shipping_address": {"type": "string", "minLength": 1, "maxLength": 500},
        "shipping_city": {"type": "string", "minLength": 1, "maxLength": 100},
        "shipping_state": {"type": "string", "minLength": 1, "maxLength": 100},
        "shipping_zip": {"type": "string", "minLength": 1, "maxLength": 20},
        "shipping_country": {"type": "string", "maxLength": 50},
        "shipping_phone": {"type": "string", "maxLength": 30},
        "shipping_method": {"type": "string", "enum": ["standard", "express"]},
    },
}
ORDER_STATUS_BODY = {
    "type": "object",
    "required": ["order_id", "email"],
    "additionalProperties": False,
    "properties": {
        "order_id": {"type": "integer", "minimum": 1},
        "email": {"type": "string", "format": "email", "maxLength": 255},
    },
}
ORDER_TRACK_BODY = {
    "type": "object",
    "required": ["tracking_number"],
    "additionalProperties": False,
    "properties": {"tracking_number": {"type": "string", "minLength": 1, "maxLength": 100}},
}
CREATE_INTENT_BODY = {
    "type": "object",
    "required": ["order_id"],
    "additionalProperties": False,
    "properties": {"order_id": {"type": "integer", "minimum": 1}, "order_token": {"type": "string", "maxLength": 64}},
}
OFFLINE_CONFIRM_BODY = {
    "type": "object",
    "required": ["payment_intent_id", "card_number"],
    "additionalProperties": False,
    "properties": {
        "payment_intent_id": {"type": "string", "minLength": 1, "maxLength": 255},
        "card_number": {"type": "string", "minLength": 12, "maxLength": 23, "pattern": "^[0-9 -]+$"},
        "order_token": {"type": "string", "maxLength": 64},
    },
}
RETURN_BODY = {
    "type": "object",
    "required": ["order_id", "items"],
    "additionalProperties": False,
    "properties": {
        "order_id": {"type": "integer", "minimum": 1},
        "order_token": {"type": "string", "maxLength": 64},
        "items": {
            "type": "array",
            "minItems": 1,
            "maxItems": 50,
            "items": {
                "type": "object",
                "required": ["order_item_id", "quantity", "reason"],
                "additionalProperties": False,
                "properties": {
                    "order_item_id": {"type": "integer", "minimum": 1},
                    "quantity": {"type": "integer", "minimum": 1, "maximum": 10},
                    "reason": {"type": "string", "minLength": 3, "maxLength": 500},
                },
            },
        },
    },
}


RETURN_STATUSES = ["requested", "approved", "rejected"]
ORDER_STATUS = {"type": "string", "enum": list(ORDER_STATUSES)}
CURRENCY = {"type": "string", "pattern": "^[A-Z]{3}$"}
NULLABLE_DATE_TIME = {"anyOf": [DATE_TIME, {"type": "null"}]}

ORDER_EVENT_SCHEMA = {
    "type": "object",
    "required": ["status", "note", "at"],
    "properties": {
        "status": {**ORDER_STATUS, "description": "The order's status when this happened"},
        "note": {"type": "string", "description": "What happened, in words for the customer"},
        "at": DATE_TIME,
    },
}
ORDER_SUMMARY_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "status",
        "email",
        "created_at",
        "paid_at",
        "currency",
        "subtotal",
        "discount",
        "shipping",
        "tax",
        "total",
        "item_count",
        "carrier",
        "tracking_number",
        "payment_provider",
        "payment_method",
        "test_payment",
    ],
    "properties": {
        "id": {"type": "integer"},
        "status": ORDER_STATUS,
        "email": {"type": "string"},
        "created_at": DATE_TIME,
        "paid_at": NULLABLE_DATE_TIME,
        "currency": CURRENCY,
        "subtotal": SUBTOTAL,
        "discount": SALE_SAVING,
        "shipping": MONEY,
        "tax": MONEY,
        "total": MONEY,
        "item_count": {"type": "integer", "minimum": 0},
        "carrier": NULLABLE_STRING,
        "tracking_number": NULLABLE_STRING,
        "payment_provider": {"type": ["string", "null"], "enum": ["offline", "stripe", None]},
        "payment_method": NULLABLE_STRING,
        "test_payment": {"type": "boolean", "description": "Paid with the offline test provider: no money moved"},
    },
}
ORDER_ITEM_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "product_id",
        "name",
        "sku",
        "color",
        "size",
        "quantity",
        "list_price",
        "unit_price",
        "line_total",
        "returned_quantity",
    ],
    "properties": {
        "id": {"type": "integer"},
        "product_id": {"type": ["integer", "null"], "description": "null once the product is deleted"},
        "name": {"type": "string"},
        "sku": {"type": "string"},
        "color": {"type": "string"},
        "size": {"type": "string"},
        "quantity": {"type": "integer", "minimum": 1},
        "list_price": MONEY,
        "unit_price": MONEY,
        "line_total": MONEY,
        "returned_quantity": {"type": "integer", "minimum": 0},
    },
}
ORDER_SCHEMA = {
    "allOf": [
        {"$ref": "#/components/schemas/OrderSummary"},
        {
            "type": "object",
            "required": ["ship_to", "items", "events", "receipt_url", "receipt_pdf_url"],
            "properties": {
                "ship_to": {
                    "type": "object",
                    "required": ["name", "address", "city", "state", "zip", "country", "phone", "method"],
                    "properties": {
                        "name": {"type": "string"},
                        "address": {"type": "string"},
                        "city": {"type": "string"},
                        "state": {"type": "string"},
                        "zip": {"type": "string"},
                        "country": {"type": "string"},
                        "phone": NULLABLE_STRING,
                        "method": {"type": "string", "enum": ["standard", "express"]},
                    },
                },
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/OrderItem"}},
                "events": {"type": "array", "items": {"$ref": "#/components/schemas/OrderEvent"}},
                "receipt_url": {**NULLABLE_STRING, "description": "The receipt page, once paid"},
                "receipt_pdf_url": {**NULLABLE_STRING, "description": "The receipt PDF, once paid"},
            },
        },
    ]
}
# What a guest's lookup by number + email shows: what a receipt shows (items, totals, status, dates) and never the
# card, the tracking number or the address; the buyer's own session or account opens the whole order instead.
ORDER_LOOKUP_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        "id",
        "status",
        "created_at",
        "paid_at",
        "delivered_at",
        "currency",
        "subtotal",
        "discount",
        "shipping",
        "tax",
        "total",
        "item_count",
        "test_payment",
        "items",
        "history",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "status": ORDER_STATUS,
        "created_at": DATE_TIME,
        "paid_at": NULLABLE_DATE_TIME,
        "delivered_at": NULLABLE_DATE_TIME,
        "currency": CURRENCY,
        "subtotal": SUBTOTAL,
        "discount": SALE_SAVING,
        "shipping": MONEY,
        "tax": MONEY,
        "total": MONEY,
        "item_count": {"type": "integer", "minimum": 0},
        "test_payment": {"type": "boolean", "description": "Paid with the offline test provider: no money moved"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "color", "size", "quantity", "unit_price", "line_total"],
                "properties": {
                    "name": {"type": "string"},
                    "color": {"type": "string"},
                    "size": {"type": "string"},
                    "quantity": {"type": "integer", "minimum": 1},
                    "unit_price": MONEY,
                    "line_total": MONEY,
                },
            },
        },
        "history": {
            "type": "array",
            "description": "Each status the order reached, and when (no notes: they may name the card)",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["status", "at"],
                "properties": {"status": ORDER_STATUS, "at": DATE_TIME},
            },
        },
    },
}
SHIPMENT_SCHEMA = {
    "type": "object",
    "required": ["tracking_number", "carrier", "status", "order_id", "events"],
    "properties": {
        "tracking_number": {"type": "string"},
        "carrier": NULLABLE_STRING,
        "status": ORDER_STATUS,
        "order_id": {"type": "integer"},
        "events": {
            "type": "array",
            "description": "Shipping milestones only",
            "items": {"$ref": "#/components/schemas/OrderEvent"},
        },
    },
}
RETURN_SCHEMA = {
    "type": "object",
    "required": ["id", "order_id", "status", "refund_amount", "items", "created_at"],
    "properties": {
        "id": {"type": "integer"},
        "order_id": {"type": "integer"},
        "status": {"type": "string", "enum": RETURN_STATUSES},
        "refund_amount": MONEY,
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["order_item_id", "name", "quantity", "reason"],
                "properties": {
                    "order_item_id": {"type": "integer"},
                    "name": {"type": "string"},
                    "quantity": {"type": "integer", "minimum": 1},
                    "reason": {"type": "string"},
                },
            },
        },
        "created_at": DATE_TIME,
    },
}
PAYMENT_INTENT_SCHEMA = {
    "type": "object",
    "required": ["provider", "payment_intent_id", "client_secret", "amount", "currency"],
    "properties": {
        "provider": {"type": "string", "enum": ["offline", "stripe"]},
        "payment_intent_id": {"type": "string"},
        "client_secret": {"type": "string"},
        "amount": MONEY,
        "currency": CURRENCY,
    },
}


def money(value) -> str:
    return f"{value:.2f}"


def order_to_dict(order: Order, *, full: bool = True) -> dict:
    data = {
        "id": order.id,
        "status": order.status,
        "email": order.email,
        "created_at": order.created_at.isoformat(),
        "paid_at": order.paid_at.isoformat() if order.paid_at else None,
        "currency": order.currency,
        "subtotal": money(order.items_subtotal),  # the lines at the prices paid, as every page shows it
        "discount": money(order.discount),  # what sales took off the list prices, already in subtotal
        "shipping": money(order.shipping),
        "tax": money(order.tax),
        "total": money(order.total),
        "item_count": order.item_count,
        "carrier": order.carrier,
        "tracking_number": order.tracking_number,
        "payment_provider": order.payment_provider,
        "payment_method": order.payment_method,
        "test_payment": order.is_test_payment,
    }
    if full:
        data.update(
            ship_to={
                "name": order.shipping_name,
                "address": order.shipping_address,
                "city": order.shipping_city,
                "state": order.shipping_state,
                "zip": order.shipping_zip,
                "country": order.shipping_country,
                "phone": order.shipping_phone,
                "method": order.shipping_method,
            },  # fmt: skip
            items=[
                {
                    "id": item.id,
                    "product_id": item.product_id,
                    "name": item.name,
                    "sku": item.sku,
                    "color": item.color,
                    "size": item.size,
                    "quantity": item.quantity,
                    "list_price": money(item.list_price),
                    "unit_price": money(item.unit_price),
                    "line_total": money(item.line_total),
                    "returned_quantity": item.returned_quantity,
                }  # fmt: skip
                for item in order.items
            ],
            events=timeline_dicts(order),
            receipt_url=url_for("orders.show_receipt", order_id=order.id) if order.is_paid else None,
            receipt_pdf_url=url_for("orders.receipt_pdf", order_id=order.id) if order.is_paid else None,
        )
    return data


def order_lookup_to_dict(order: Order) -> dict:
    """A guest's lookup by number + email: what a receipt shows, never the card, tracking number or address."""
    return {
        "id": order.id,
        "status": order.status,
        "created_at": order.created_at.isoformat(),
        "paid_at": order.paid_at.isoformat() if order.paid_at else None,
        "delivered_at": order.delivered_at.isoformat() if order.delivered_at else None,
        "currency": order.currency,
        "subtotal": money(order.items_subtotal),
        **{name: money(getattr(order, name)) for name in ("discount", "shipping", "tax", "total")},
        "item_count": order.item_count,
        "test_payment": order.is_test_payment,
        "items": [
            {
                "name": item.name,
                "color": item.color,
                "size": item.size,
                "quantity": item.quantity,
                "unit_price": money(item.unit_price),
                "line_total": money(item.line_total),
            }
            for item in order.items
        ],  # fmt: skip
        "history": [{"status": event.status, "at": event.created_at.isoformat()} for event in order.events],
    }


def tracking_to_dict(order: Order) -> dict:
    return {
        "tracking_number": order.tracking_number,
        "carrier": order.carrier,
        "status": order.status,
        "order_id": order.id,
        "events": timeline_dicts(order, public=True),
    }


def return_to_dict(request: ReturnRequest) -> dict:
    return {
        "id": request.id,
        "order_id": request.order_id,
        "status": request.status,
        "refund_amount": money(request.refund_amount),
        "items": [
            {"order_item_id": i.order_item_id, "name": i.order_item.name, "quantity": i.quantity, "reason": i.reason}
            for i in request.items
        ],
        "created_at": request.created_at.isoformat(),
    }
