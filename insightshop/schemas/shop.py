"""Request bodies and output shapes of accounts, cart, wishlist, reviews and compare (seed 001 field names)."""

from __future__ import annotations

from flask import url_for

from ..models.accounts import User
from ..models.reviews import Review
from ..services.cart import Cart, CartLine
from ..services.wishlist import WishlistEntry
from .products import DATE_TIME, MONEY

EMAIL = {"type": "string", "format": "email", "maxLength": 255}

REGISTER_BODY = {
    "type": "object",
    "required": ["email", "password"],
    "additionalProperties": False,
    "properties": {
        "email": EMAIL,
        "password": {"type": "string", "minLength": 8, "maxLength": 512},
        "first_name": {"type": "string", "maxLength": 100},
        "last_name": {"type": "string", "maxLength": 100},
    },
}
LOGIN_BODY = {  # the auth_login tool's input
    "type": "object",
    "required": ["email", "password"],
    "additionalProperties": False,
    "properties": {"email": EMAIL, "password": {"type": "string", "minLength": 1, "maxLength": 512}},
}
PASSWORD_RESET_REQUEST_BODY = {
    "type": "object",
    "required": ["email"],
    "additionalProperties": False,
    "properties": {"email": EMAIL},
}
CART_ADD_BODY = {  # cart_add_item's fields that identify one variant directly
    "type": "object",
    "required": ["product_id"],
    "additionalProperties": False,
    "properties": {
        "product_id": {"type": "integer", "minimum": 1},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
        "selected_color": {"type": "string", "maxLength": 50},
        "selected_size": {"type": "string", "maxLength": 20},
    },
}
CART_UPDATE_BODY = {
    "type": "object",
    "required": ["quantity"],
    "additionalProperties": False,
    "properties": {"quantity": {"type": "integer", "minimum": 1, "maximum": 10}},
}
WISHLIST_ADD_BODY = {
    "type": "object",
    "required": ["product_id"],
    "additionalProperties": False,
    "properties": {"product_id": {"type": "integer", "minimum": 1}},
}
REVIEW_BODY = {  # review_create without product_id (it is in the path)
    "type": "object",
    "required": ["rating"],
    "additionalProperties": False,
    "properties": {
        "rating": {"type": "number", "minimum": 1.0, "maximum": 5.0},
        "comment": {"type": "string", "maxLength": 2000},
        "user_name": {"type": "string", "maxLength": 255},
    },
}
COMPARE_BODY = {  # compare_products
    "type": "object",
    "required": ["product_ids"],
    "additionalProperties": False,
    "properties": {
        "product_ids": {"type": "array", "minItems": 2, "maxItems": 10, "items": {"type": "integer", "minimum": 1}}
    },
}


USER_SCHEMA = {
    "type": "object",
    "required": ["id", "email", "first_name", "last_name", "is_verified", "is_admin", "is_superadmin", "created_at"],
    "properties": {
        "id": {"type": "integer"},
        "email": {"type": "string"},
        "first_name": {"type": "string"},
        "last_name": {"type": "string"},
        "is_verified": {"type": "boolean"},
        "is_admin": {"type": "boolean"},
        "is_superadmin": {"type": "boolean"},
        "created_at": DATE_TIME,
    },
}
CART_ITEM_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "product_id",
        "variant_id",
        "sku",
        "name",
        "category",
        "clothing_type",
        "color",
        "size",
        "quantity",
        "unit_price",
        "line_total",
        "stock",
        "image_url",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "product_id": {"type": "integer"},
        "variant_id": {"type": "integer"},
        "sku": {"type": "string"},
        "name": {"type": "string"},
        "category": {"type": "string", "description": "The product's department: men, women or kids"},
        "clothing_type": {"type": "string"},
        "color": {"type": "string"},
        "size": {"type": "string"},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 10},
        "unit_price": MONEY,
        "line_total": MONEY,
        "stock": {"type": "integer", "minimum": 0},
        "image_url": {"type": "string"},
    },
}
CART_SCHEMA = {
    "type": "object",
    "required": ["items", "item_count", "subtotal", "currency"],
    "properties": {
        "items": {"type": "array", "items": {"$ref": "#/components/schemas/CartItem"}},
        "item_count": {"type": "integer", "minimum": 0, "description": "Units in the cart"},
        "subtotal": MONEY,
        "currency": {"type": "string", "enum": ["USD"]},
    },
}
WISHLIST_ITEM_SCHEMA = {
    "type": "object",
    "required": [
        "product_id",
        "name",
        "price",
        "saved_price",
        "price_drop",
        "in_stock",
        "back_in_stock",
        "saved_at",
        "image_url",
    ],  # fmt: skip
    "properties": {
        "product_id": {"type": "integer"},
        "name": {"type": "string"},
        "price": MONEY,
        "saved_price": MONEY,
        "price_drop": {"anyOf": [MONEY, {"type": "null"}], "description": "How much cheaper since saving, else null"},
        "in_stock": {"type": "boolean"},
        "back_in_stock": {"type": "boolean"},
        "saved_at": DATE_TIME,
        "image_url": {"type": "string"},
    },
}
REVIEW_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "product_id",
        "rating",
        "comment",
        "author",
        "by_guest",
        "verified_purchase",
        "created_at",
        "updated_at",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "product_id": {"type": "integer"},
        "rating": {"type": "number", "minimum": 1, "maximum": 5},
        "comment": {"type": "string"},
        "author": {"type": "string"},
        "by_guest": {"type": "boolean"},
        "verified_purchase": {"type": "boolean"},
        "created_at": DATE_TIME,
        "updated_at": DATE_TIME,
    },
}


def user_to_dict(user: User) -> dict:
    return {
        "id": user.id,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "is_verified": user.is_verified,
        "is_admin": user.is_admin,
        "is_superadmin": user.is_superadmin,
        "created_at": user.created_at.isoformat(),
    }


def cart_line_to_dict(line: CartLine) -> dict:
    return {
        "id": line.item.id,
        "product_id": line.product.id,
        "variant_id": line.variant.id,
        "sku": line.variant.sku,
        "name": line.product.name,
        "category": line.product.category,
        "clothing_type": line.product.clothing_type,
        "color": line.variant.color,
        "size": line.variant.size,
        "quantity": line.item.quantity,
        "unit_price": f"{line.unit_price:.2f}",
        "line_total": f"{line.line_total:.2f}",
        "stock": line.variant.stock,
        "image_url": url_for("shop.product_image", product_id=line.product.id, color=line.variant.color),
    }


def cart_to_dict(cart: Cart) -> dict:
    return {
        "items": [cart_line_to_dict(line) for line in cart.lines],
        "item_count": cart.item_count,
        "subtotal": f"{cart.subtotal:.2f}",
        "currency": "USD",
    }


def wishlist_entry_to_dict(entry: WishlistEntry) -> dict:
    return {
        "product_id": entry.product.id,
        "name": entry.product.name,
        "price": f"{entry.price:.2f}",
        "saved_price": f"{entry.saved_price:.2f}",
        "price_drop": None if entry.price_drop is None else f"{entry.price_drop:.2f}",
        "in_stock": entry.in_stock,
        "back_in_stock": entry.back_in_stock,
        "saved_at": entry.item.created_at.isoformat(),
        "image_url": url_for("shop.product_image", product_id=entry.product.id),
    }


def review_to_dict(review: Review) -> dict:
    return {
        "id": review.id,
        "product_id": review.product_id,
        "rating": float(review.rating),
        "comment": review.comment,
        "author": review.author_name,
        "by_guest": review.user_id is None,
        "verified_purchase": review.is_verified_purchase,
        "created_at": review.created_at.isoformat(),
        "updated_at": review.updated_at.isoformat(),
    }
