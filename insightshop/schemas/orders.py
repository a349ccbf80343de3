"""Order, payment and return request bodies (seed 001: checkout_proceed, order_status, order_track) and shapes."""

from __future__ import annotations

from flask import url_for

from ..models.orders import Order, ReturnRequest
from ..services.order_timeline import timeline_dicts

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
        "subtotal": money(order.subtotal),
        "discount": money(order.discount),
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
