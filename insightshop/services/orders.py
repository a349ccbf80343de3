"""Checkout and orders: a cart becomes an order with stock taken in the same transaction; lookups and access."""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from ..extensions import db
from ..models.base import utcnow
from ..models.cart import CartItem
from ..models.catalog import ProductVariant
from ..models.orders import Order, OrderEvent, OrderItem
from . import cart as carts
from . import pricing
from .accounts import normalise_email
from .actors import Actor
from .errors import Conflict, ErrorCode, Invalid, NotFound

LOCK_RETRIES = 20


@dataclass(frozen=True)
class ShippingDetails:
    """The checkout_proceed fields (seed 001), plus the shipping method."""

    email: str
    shipping_name: str
    shipping_address: str
    shipping_city: str
    shipping_state: str
    shipping_zip: str
    shipping_country: str = "US"
    shipping_phone: str | None = None
    shipping_method: str = "standard"


def quote(actor: Actor, method: str = "standard") -> pricing.Totals:
    """What the actor's cart would cost with this shipping method (all computed here)."""
    book = pricing.PriceBook()
    current = carts.get_cart(actor)
    return pricing.totals([(book.price_of(line.product), line.item.quantity) for line in current.lines], method)


def place_order(actor: Actor, details: ShippingDetails, idempotency_key: str | None = None) -> Order:
    """Turn the actor's cart into a pending order, taking the stock; a repeated idempotency key returns the first order."""
    actor.require_owner()
    if details.shipping_method not in pricing.SHIPPING_METHODS:
        raise Invalid(
            "shipping_method must be standard or express", details=[{"field": "shipping_method", "message": "unknown"}]
        )
    email = normalise_email(details.email)
    if idempotency_key:
        existing = order_for_key(actor, idempotency_key)
        if existing is not None:
            return existing
    for attempt in range(LOCK_RETRIES):
        try:
            return _place(actor, details, email, idempotency_key)
        except OperationalError as error:  # SQLite: another checkout holds the write lock
            db.session.rollback()
            if "locked" not in str(error).lower() or attempt == LOCK_RETRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
        except IntegrityError:
            db.session.rollback()
            existing = order_for_key(actor, idempotency_key) if idempotency_key else None
            if existing is None:
                raise
            return existing
    raise AssertionError("unreachable")


def _place(actor: Actor, details: ShippingDetails, email: str, idempotency_key: str | None) -> Order:
    db.session.rollback()  # a transaction of its own, started below with the write lock
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(text("BEGIN IMMEDIATE"))  # one writer at a time: no two checkouts read the same stock
    items = db.session.scalars(carts.owned_items(actor).order_by(CartItem.id)).unique().all()
    if not items:
        raise Invalid("Your cart is empty", code=ErrorCode.CART_EMPTY)
    _release_open_checkouts(actor)
    # Row locks (PostgreSQL) in id order, so concurrent checkouts cannot deadlock or both take the last unit.
    variant_ids = sorted({item.variant_id for item in items})
    locked = {v.id: v for v in db.session.scalars(
        select(ProductVariant).where(ProductVariant.id.in_(variant_ids)).order_by(ProductVariant.id)
        .with_for_update().execution_options(populate_existing=True)
    )}  # fmt: skip
    book = pricing.PriceBook()
    lines = []
    for item in items:
        variant = locked[item.variant_id]
        product = variant.product
        if not product.is_active:
            raise Conflict(f"{product.name} is no longer sold; remove it from your cart", code=ErrorCode.OUT_OF_STOCK)
        carts.check_stock(product, variant, item.quantity)
        lines.append((item, variant, product, book.price_of(product)))
    totals = pricing.totals([(price, item.quantity) for item, _, _, price in lines], details.shipping_method)
    order = Order(
        user_id=actor.user.id if actor.user else None,
        cart_guest_id=None if actor.user else actor.guest_id,
        email=email,
        guest_token=secrets.token_urlsafe(24),
        idempotency_key=_scoped_key(actor, idempotency_key),
        status="pending",
        **{
            field: getattr(details, field)
            for field in (
                "shipping_name",
                "shipping_address",
                "shipping_city",
                "shipping_state",
                "shipping_zip",
                "shipping_phone",
            )
        },  # fmt: skip
        shipping_country=details.shipping_country or "US",
        shipping_method=details.shipping_method,
        subtotal=totals.subtotal,
        discount=totals.discount,
        shipping=totals.shipping,
        tax=totals.tax,
        total=totals.total,
    )
    for item, variant, product, price in lines:
        variant.stock -= item.quantity
        order.items.append(OrderItem(
            product_id=product.id, variant_id=variant.id, name=product.name, sku=variant.sku, color=variant.color,
            size=variant.size, list_price=price.list_price, unit_price=price.price, quantity=item.quantity,
            line_total=pricing.line_total(price.price, item.quantity),
        ))  # fmt: skip
    order.events.append(OrderEvent(status="pending", note="Order placed", actor=_actor_label(actor)))
    db.session.add(order)
    db.session.commit()
    return order


def _release_open_checkouts(actor: Actor) -> None:
    """One open checkout per cart: an earlier unpaid order of the same cart gives its stock back."""
    owner = Order.user_id == actor.user.id if actor.user else Order.cart_guest_id == actor.guest_id
    for stale in db.session.scalars(select(Order).where(owner, Order.status == "pending", Order.paid_at.is_(None))):
        cancel_order(stale, actor_label="system", note="Replaced by a newer checkout", commit=False)


def cancel_order(order: Order, *, actor_label: str, note: str = "Cancelled", commit: bool = True) -> Order:
    """Cancel an order that may still be cancelled, putting its items back in stock."""
    if not order.can_change_to("cancelled"):
        raise Conflict(f"A {order.status} order cannot be cancelled", code=ErrorCode.INVALID_TRANSITION)
    for item in order.items:
        if item.variant_id is not None:
            variant = db.session.get(ProductVariant, item.variant_id, with_for_update=True)
            if variant is not None:
                variant.stock += item.quantity - item.returned_quantity
    set_status(order, "cancelled", actor_label=actor_label, note=note, commit=commit)
    return order


def set_status(order: Order, status: str, *, actor_label: str, note: str = "", commit: bool = True) -> None:
    """Move an order along its allowed transitions, recording the event."""
    if not order.can_change_to(status):
        raise Conflict(f"An order cannot go from {order.status} to {status}", code=ErrorCode.INVALID_TRANSITION,
                       details=[{"from": order.status, "to": status}])  # fmt: skip
    order.status = status
    if status == "delivered":
        order.delivered_at = utcnow()
    order.events.append(OrderEvent(status=status, note=note, actor=actor_label))
    if commit:
        db.session.commit()


def get_order(actor: Actor, order_id: int, token: str | None = None) -> Order:
    """An order its owner may see: the user who placed it, the guest whose cart it was, a holder of its token,
    or an admin; for anyone else it does not exist."""
    order = db.session.get(Order, order_id)
    if order is None or not can_access(actor, order, token):
        raise NotFound(f"Order {order_id} does not exist")
    return order


def can_access(actor: Actor, order: Order, token: str | None = None) -> bool:
    if actor.is_admin:
        return True
    if actor.user is not None and order.user_id == actor.user.id:
        return True
    if actor.guest_id is not None and order.cart_guest_id == actor.guest_id:
        return True
    return bool(token) and hmac.compare_digest(token, order.guest_token)


def list_orders(actor: Actor) -> list[Order]:
    """The signed-in user's orders, newest first."""
    user = actor.require_user()
    return list(db.session.scalars(select(Order).where(Order.user_id == user.id).order_by(Order.id.desc())))


def order_status(order_id: int, email: str) -> Order:
    """An order found by id and email; a wrong email looks exactly like a missing order."""
    order = db.session.get(Order, order_id)
    if order is None or not hmac.compare_digest(order.email.lower(), (email or "").strip().lower()):
        raise NotFound("No order matches that number and email")
    return order


def track_order(tracking_number: str) -> Order:
    """The order shipped under a tracking number."""
    order = db.session.scalar(select(Order).where(Order.tracking_number == (tracking_number or "").strip()))
    if order is None:
        raise NotFound("No shipment has that tracking number")
    return order


def order_for_key(actor: Actor, key: str) -> Order | None:
    """The order this customer already placed with an idempotency key, if any."""
    return db.session.scalar(select(Order).where(Order.idempotency_key == _scoped_key(actor, key)))


def _scoped_key(actor: Actor, key: str | None) -> str | None:
    # Keys are per customer: one shopper's key can never return another shopper's order.
    if not key:
        return None
    owner = f"u{actor.user.id}" if actor.user else f"g{actor.guest_id}"
    return f"{owner}:{key}"[:128]


def _actor_label(actor: Actor) -> str:
    return actor.user.email if actor.user else "guest"
