"""Checkout and orders: a cart becomes an order with stock taken in the same transaction; lookups and access.

Every change of an order's status (checkout replacing a stale order, cancel, expire, pay) runs in a write
transaction that locks the order's row and re-reads its status first: on PostgreSQL `SELECT … FOR UPDATE`
(after a per-cart advisory lock that serialises one cart's checkouts and payments), on SQLite `BEGIN IMMEDIATE`
(one writer at a time). So each transition happens once, and stock is given back only by the one that did it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import timedelta
from decimal import Decimal
from typing import TypeVar

from flask import current_app
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy import and_, func, or_, select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from ..extensions import db
from ..models.accounts import User
from ..models.base import utcnow
from ..models.cart import CartItem
from ..models.catalog import ProductVariant
from ..models.orders import Order, OrderEvent, OrderItem
from . import cart as carts
from . import order_events, pricing, rate_limits
from .accounts import normalise_email
from .actors import Actor
from .errors import Conflict, DomainError, ErrorCode, Invalid, NotFound

LOCK_RETRIES = 20
T = TypeVar("T")

CHECKOUT_PER_CLIENT = rate_limits.Rule("checkout-client", "CHECKOUT_LIMIT_PER_CLIENT", "10 per 10 minutes",
                                       "Too many checkouts from your address; please try again later")  # fmt: skip
CHECKOUT_PER_OWNER = rate_limits.Rule("checkout-owner", "CHECKOUT_LIMIT_PER_OWNER", "10 per 10 minutes",
                                      "Too many checkouts for this cart; please try again later")  # fmt: skip
# Failed lookups by number + email: per client, per order number (whoever asks) and per email (whichever number).
LOOKUP_MESSAGE = "Too many order lookups; please try again later, or sign in to see your orders"
LOOKUP_PER_CLIENT = rate_limits.Rule(
    "lookup-client", "ORDER_LOOKUP_LIMIT_PER_CLIENT", "10 per 10 minutes", LOOKUP_MESSAGE
)
LOOKUP_PER_ORDER = rate_limits.Rule("lookup-order", "ORDER_LOOKUP_LIMIT_PER_ORDER", "10 per hour", LOOKUP_MESSAGE)
LOOKUP_PER_EMAIL = rate_limits.Rule("lookup-email", "ORDER_LOOKUP_LIMIT_PER_EMAIL", "20 per hour", LOOKUP_MESSAGE)
LINK_MAILS_PER_ORDER = rate_limits.Rule("order-link-mail", "ORDER_LINK_MAILS_PER_ORDER", "3 per hour")


class IdempotencyKeyReused(DomainError):
    """The same Idempotency-Key came back with a different checkout body."""

    status = 422
    default_code = ErrorCode.IDEMPOTENCY_KEY_REUSED


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


def last_shipping_details(actor: Actor) -> dict | None:
    """The shipping fields of the actor's most recent order (checkout_proceed's names), to offer them again."""
    recent = recent_orders(actor, 1)
    if not recent:
        return None
    order = recent[0]
    fields = ("email", "shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip",
              "shipping_country", "shipping_phone")  # fmt: skip
    return {name: getattr(order, name) for name in fields if getattr(order, name, None)}


def recent_orders(actor: Actor, limit: int = 5) -> list[Order]:
    """The actor's own orders, newest first: a signed-in user's, or those this guest's cart became."""
    if actor.user is not None:
        owner = Order.user_id == actor.user.id
    elif actor.guest_id:
        owner = Order.cart_guest_id == actor.guest_id
    else:
        return []
    statement = select(Order).where(owner).order_by(Order.created_at.desc(), Order.id.desc()).limit(max(1, limit))
    return list(db.session.scalars(statement))


def quote(actor: Actor, method: str = "standard") -> pricing.Totals:
    """What the actor's cart would cost with this shipping method (all computed here)."""
    book = pricing.PriceBook()
    current = carts.get_cart(actor)
    return pricing.totals([(book.price_of(line.product), line.item.quantity) for line in current.lines], method)


def check_checkout(actor: Actor) -> None:
    """Refuse up front a checkout that could not run: nobody to check out for, or an empty cart."""
    actor.require_owner()
    if carts.get_cart(actor).is_empty:
        raise Invalid("Your cart is empty", code=ErrorCode.CART_EMPTY)


def delivery_options(actor: Actor) -> list[pricing.DeliveryOption]:
    """The shipping methods with their cost for the actor's cart (free standard shipping applied)."""
    book = pricing.PriceBook()
    current = carts.get_cart(actor)
    merchandise = sum((book.price_of(line.product).price * line.item.quantity for line in current.lines), Decimal("0"))
    return pricing.delivery_options(merchandise)


def write_transaction(work: Callable[[], T]) -> T:
    """Run `work` in a transaction of its own that may lock rows; retried while SQLite's write lock is busy or
    PostgreSQL broke a deadlock. On SQLite the transaction takes the write lock up front (BEGIN IMMEDIATE)."""
    for attempt in range(LOCK_RETRIES):
        db.session.rollback()
        try:
            if db.session.get_bind().dialect.name == "sqlite":
                db.session.execute(text("BEGIN IMMEDIATE"))  # one writer at a time: nobody reads a stale status
            return work()
        except OperationalError as error:
            db.session.rollback()
            message = str(error).lower()
            if not ("locked" in message or "deadlock" in message) or attempt == LOCK_RETRIES - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
        except BaseException:
            db.session.rollback()
            raise
    raise AssertionError("unreachable")


def lock_order(order_id: int) -> Order | None:
    """The order's row, locked for this transaction (FOR UPDATE on PostgreSQL) and re-read from the database."""
    return db.session.scalar(
        select(Order).where(Order.id == order_id).with_for_update().execution_options(populate_existing=True)
    )


def lock_cart_of(order: Order) -> None:
    """Serialise everything that touches one cart's checkouts (PostgreSQL: a transaction-scoped advisory lock)."""
    _lock_owner(f"u{order.user_id}" if order.user_id else f"g{order.cart_guest_id}")


def lock_order_and_cart(order_id: int) -> Order:
    """Inside write_transaction: the cart's lock, then the order's row lock (always in this order), re-read."""
    order = db.session.get(Order, order_id)
    if order is None:
        raise NotFound(f"Order {order_id} does not exist")
    lock_cart_of(order)
    return lock_order(order_id)


def _lock_owner(owner: str) -> None:
    if db.session.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(f"insightshop-cart:{owner}".encode()).digest()[:8], "big", signed=True)
        db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


@dataclass(frozen=True)
class Checkout:
    """What a checkout did: the order, and whether an earlier checkout with the same Idempotency-Key placed it."""

    order: Order
    replayed: bool


def place_order(actor: Actor, details: ShippingDetails, idempotency_key: str | None = None, *,
                client: str | None = None) -> Order:  # fmt: skip
    """Turn the actor's cart into a pending order, taking the stock (see checkout); the order."""
    return checkout(actor, details, idempotency_key, client=client).order


def checkout(actor: Actor, details: ShippingDetails, idempotency_key: str | None = None, *,
             client: str | None = None) -> Checkout:  # fmt: skip
    """Turn the actor's cart into a pending order, taking the stock; a repeated idempotency key returns the first
    order, also while that first checkout is still running (422 when it comes with a different body). Rate
    limited per client address and per cart."""
    actor.require_owner()
    if details.shipping_method not in pricing.SHIPPING_METHODS:
        raise Invalid(
            "shipping_method must be standard or express", details=[{"field": "shipping_method", "message": "unknown"}]
        )
    email = normalise_email(details.email)
    fingerprint = checkout_fingerprint(details)
    existing = replayed_order(actor, idempotency_key, details)
    if existing is not None:
        return Checkout(existing, replayed=True)
    rate_limits.take((CHECKOUT_PER_CLIENT, client), (CHECKOUT_PER_OWNER, _owner_key(actor)))
    try:
        return write_transaction(lambda: _place(actor, details, email, idempotency_key, fingerprint, client))
    except IntegrityError:
        existing = replayed_order(actor, idempotency_key, details)
        if existing is None:
            raise
        return Checkout(existing, replayed=True)


def replayed_order(actor: Actor, idempotency_key: str | None, details: ShippingDetails) -> Order | None:
    """The order an earlier checkout with this key placed; IdempotencyKeyReused when the body differs."""
    if not idempotency_key or not actor.has_owner:
        return None
    existing = order_for_key(actor, idempotency_key)
    if existing is None:
        return None
    if existing.checkout_fingerprint and not hmac.compare_digest(
        existing.checkout_fingerprint, checkout_fingerprint(details)
    ):
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used for a different checkout; use a new key for a new order",
            details=[{"field": "Idempotency-Key", "message": "already used with a different body"}],
        )
    return existing


def checkout_fingerprint(details: ShippingDetails) -> str:
    """A hash of what was asked for, to tell a retry from a different checkout under the same key."""
    fields = asdict(details)
    fields["email"] = (fields["email"] or "").strip().lower()
    fields["shipping_country"] = fields["shipping_country"] or "US"
    fields = {name: (value.strip() if isinstance(value, str) else value) or None for name, value in fields.items()}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _place(actor: Actor, details: ShippingDetails, email: str, idempotency_key: str | None,
           fingerprint: str, client: str | None = None) -> Checkout:  # fmt: skip
    _lock_owner(_owner_key(actor))  # concurrent checkouts of one cart run one after the other
    existing = replayed_order(actor, idempotency_key, details)  # a retry that waited for the first attempt
    if existing is not None:
        return Checkout(existing, replayed=True)
    items = db.session.scalars(carts.owned_items(actor).order_by(CartItem.id)).unique().all()
    if not items:
        raise Invalid("Your cart is empty", code=ErrorCode.CART_EMPTY)
    variant_ids = sorted({item.variant_id for item in items})
    _release_open_checkouts(actor)
    _expire_overdue(variant_ids)  # abandoned holds on these variants free their units for this buyer
    held_by = _hold_client(client)
    capped = hold_capped(actor)
    if capped and held_by:
        _lock_owner(f"c{held_by}")  # one client's capped shoppers check out one after the other: the caps hold
    # Row locks (PostgreSQL) in id order, so concurrent checkouts cannot deadlock or both take the last unit.
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
    if capped:
        check_guest_hold(actor, held_by, lines=len(items), units=sum(item.quantity for item in items),
                         value=totals.total)  # fmt: skip
    order = Order(
        user_id=actor.user.id if actor.user else None,
        cart_guest_id=None if actor.user else actor.guest_id,
        hold_client=held_by,
        email=email,
        guest_token=secrets.token_urlsafe(24),
        idempotency_key=_scoped_key(actor, idempotency_key),
        checkout_fingerprint=fingerprint,
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
    db.session.flush()  # the order number goes into its email
    order_events.announce(order, "placed")
    db.session.commit()
    return Checkout(order, replayed=False)


def _release_open_checkouts(actor: Actor) -> None:
    """One open checkout per cart: earlier unpaid orders of the same cart give their stock back (each once)."""
    owner = Order.user_id == actor.user.id if actor.user else Order.cart_guest_id == actor.guest_id
    stale_orders = db.session.scalars(
        select(Order).where(owner, Order.status == "pending", Order.paid_at.is_(None)).order_by(Order.id)
        .with_for_update().execution_options(populate_existing=True)
    ).all()  # fmt: skip
    for stale in stale_orders:
        _cancel_locked(stale, actor_label="system", note="Replaced by a newer checkout")


def cancel_order(order: Order, *, actor_label: str, note: str = "Cancelled", commit: bool = True) -> Order:
    """Cancel an order that may still be cancelled, putting its items back in stock exactly once.

    The order's row is locked and its status re-read before anything changes, so two cancellations (or a
    cancellation racing a payment) cannot both act. With commit=False the caller owns the transaction (and
    should have started it with write_transaction)."""
    if not commit:
        locked = lock_order(order.id)
        return _cancel_locked(locked if locked is not None else order, actor_label=actor_label, note=note)
    order_id = order.id

    def work() -> Order:
        locked = lock_order_and_cart(order_id)
        _cancel_locked(locked, actor_label=actor_label, note=note)
        db.session.commit()
        return locked

    return write_transaction(work)


def _cancel_locked(order: Order, *, actor_label: str, note: str) -> Order:
    if not order.can_change_to("cancelled"):
        raise Conflict(f"A {order.status} order cannot be cancelled", code=ErrorCode.INVALID_TRANSITION)
    restock([(item.variant_id, item.quantity - item.returned_quantity) for item in order.items])
    set_status(order, "cancelled", actor_label=actor_label, note=note, commit=False)
    return order


def restock(quantities: list[tuple[int | None, int]]) -> None:
    """Put units back on their variants, row-locked in id order (the caller holds the order's lock and commits)."""
    wanted: dict[int, int] = {}
    for variant_id, quantity in quantities:
        if variant_id is not None and quantity > 0:
            wanted[variant_id] = wanted.get(variant_id, 0) + quantity
    if not wanted:
        return
    variants = db.session.scalars(
        select(ProductVariant).where(ProductVariant.id.in_(sorted(wanted))).order_by(ProductVariant.id)
        .with_for_update().execution_options(populate_existing=True)
    )  # fmt: skip
    for variant in variants:
        variant.stock += wanted[variant.id]


def set_status(order: Order, status: str, *, actor_label: str, note: str = "", commit: bool = True) -> None:
    """Move an order along its allowed transitions, recording the event (callers hold the order's lock)."""
    if not order.can_change_to(status):
        raise Conflict(f"An order cannot go from {order.status} to {status}", code=ErrorCode.INVALID_TRANSITION,
                       details=[{"from": order.status, "to": status}])  # fmt: skip
    order.status = status
    if status == "delivered":
        order.delivered_at = utcnow()
    order.events.append(OrderEvent(status=status, note=note, actor=actor_label))
    if status in ("shipped", "delivered", "cancelled"):
        order_events.announce(order, status, note=note)
    if commit:
        db.session.commit()


def hold_minutes(order: Order) -> int:
    """How long this unpaid order holds its stock: a guest's ORDER_HOLD_MINUTES, a customer's UNPAID_ORDER_MINUTES."""
    return _guest_hold_minutes() if order.user_id is None else _customer_hold_minutes()


def _guest_hold_minutes() -> int:
    return int(current_app.config.get("ORDER_HOLD_MINUTES") or 0)


def _customer_hold_minutes() -> int:
    return int(current_app.config.get("UNPAID_ORDER_MINUTES") or 0)


def hold_expired(order: Order) -> bool:
    """An unpaid order past its hold time (hold_minutes): its stock should go back on sale."""
    minutes = hold_minutes(order)
    return (order.status == "pending" and not order.is_paid and minutes > 0
            and order.created_at <= utcnow() - timedelta(minutes=minutes))  # fmt: skip


def _overdue_clause():
    """Unpaid orders past their hold time, guests' and customers' each by their own minutes (None: none expire)."""
    now = utcnow()
    overdue = [and_(owner, Order.created_at <= now - timedelta(minutes=minutes)) for owner, minutes in (
        (Order.user_id.is_(None), _guest_hold_minutes()), (Order.user_id.is_not(None), _customer_hold_minutes()),
    ) if minutes > 0]  # fmt: skip
    if not overdue:
        return None
    return and_(Order.status == "pending", Order.paid_at.is_(None), or_(*overdue))


def expire_order(order: Order) -> None:
    """Cancel a locked, overdue unpaid order with an "Expired" event (the caller commits)."""
    _cancel_locked(order, actor_label="system", note=f"Expired: not paid within {hold_minutes(order)} minutes")


def expire_unpaid() -> int:
    """Cancel every unpaid order past its hold time, returning its stock; how many expired (for a cron job)."""

    def work() -> int:
        count = _expire_overdue(None)
        db.session.commit()
        return count

    return write_transaction(work)


def release_expired_holds(variant_ids: list[int] | None) -> int:
    """Someone needs these variants' units (None: every variant, web/hold_sweeper.py): unpaid orders past their
    hold time that hold them are expired first (their own transaction, committed), so availability never counts an
    expired hold; how many expired."""
    statement = _overdue_on(variant_ids)
    if statement is None or db.session.scalar(select(func.count()).select_from(statement.subquery())) == 0:
        return 0  # the common case reads once and takes no write lock

    def work() -> int:
        count = _expire_overdue(variant_ids)
        db.session.commit()
        return count

    return write_transaction(work)


def _overdue_on(variant_ids: list[int] | None):
    overdue = _overdue_clause()
    if overdue is None:
        return None
    statement = select(Order).where(overdue)
    if variant_ids is not None:
        statement = statement.where(
            Order.id.in_(select(OrderItem.order_id).where(OrderItem.variant_id.in_(variant_ids)))
        )
    return statement


def _expire_overdue(variant_ids: list[int] | None) -> int:
    statement = _overdue_on(variant_ids)
    if statement is None:
        return 0
    # Orders someone else holds (being paid or cancelled right now) are skipped, not waited for.
    overdue = db.session.scalars(
        statement.order_by(Order.id).with_for_update(skip_locked=True).execution_options(populate_existing=True)
    ).all()
    for order in overdue:
        expire_order(order)
    return len(overdue)


def hold_capped(actor: Actor) -> bool:
    """Whether this shopper's unpaid orders are capped: guests and accounts whose email is not verified (free,
    throwaway accounts must not hold more than a guest); a verified customer is never capped."""
    return actor.user is None or not actor.user.is_verified


def check_guest_hold(actor: Actor, held_by: str | None, *, lines: int, units: int, value: Decimal) -> None:
    """Refuse (409 hold_limit) a capped shopper's order (a guest's, or an unverified account's) that would hold
    more than a guest may: per order (lines, units, value), and with the other open unpaid orders of its client
    and its guest identity that capped shoppers placed (counted in the database) at once."""
    config = current_app.config
    guest = actor.user is None
    more = "sign in to order more" if guest else "verify your email (use the link we sent you) to order more"
    who = "A guest order" if guest else "An order from an account whose email is not verified yet"
    per_order = (("lines", lines, int(config.get("GUEST_ORDER_MAX_LINES") or 0), "different items"),
                 ("units", units, int(config.get("GUEST_ORDER_MAX_UNITS") or 0), "units"),
                 ("value", value, Decimal(str(config.get("GUEST_ORDER_MAX_VALUE") or 0)), "worth of goods"))  # fmt: skip
    for what, wanted, cap, words in per_order:
        if cap > 0 and wanted > cap:
            amount = f"${cap:,.2f}" if what == "value" else f"{cap}"
            _refuse_hold(f"{who} may hold at most {amount} {words}; {more}",
                         scope=f"{what}_per_order", cap=cap, wanted=wanted)  # fmt: skip
    unit_cap = int(config.get("GUEST_HELD_UNITS_PER_CLIENT") or 0)
    value_cap = Decimal(str(config.get("GUEST_HELD_VALUE_PER_CLIENT") or 0))
    for scope, owner in (("client", Order.hold_client == held_by if held_by else None),
                         ("guest", Order.cart_guest_id == actor.guest_id if guest and actor.guest_id else None)):  # fmt: skip
        if owner is None:
            continue
        held_units, held_value = _held_by_capped(owner)
        if unit_cap > 0 and held_units + units > unit_cap:
            _refuse_hold(f"Unpaid orders from here already hold {held_units} units (at most {unit_cap} at "
                         f"once); pay for an open order or {more}",
                         scope=f"units_per_{scope}", cap=unit_cap, wanted=held_units + units)  # fmt: skip
        if value_cap > 0 and held_value + value > value_cap:
            _refuse_hold(f"Unpaid orders from here already hold ${held_value:,.2f} of goods (at most "
                         f"${value_cap:,.2f} at once); pay for an open order or {more}",
                         scope=f"value_per_{scope}", cap=value_cap, wanted=held_value + value)  # fmt: skip


def _held_by_capped(owner) -> tuple[int, Decimal]:
    """Units and value that capped shoppers' open orders matching `owner` hold right now: unpaid and within their
    own hold time, placed by a guest or by an account whose email is not verified (guests' and accounts' alike)."""
    now = utcnow()
    unverified = select(User.id).where(User.is_verified.is_(False))
    open_holds = [Order.status == "pending", Order.paid_at.is_(None), owner,
                  or_(Order.user_id.is_(None), Order.user_id.in_(unverified))]  # fmt: skip
    for holder, minutes in ((Order.user_id.is_(None), _guest_hold_minutes()),
                            (Order.user_id.is_not(None), _customer_hold_minutes())):  # fmt: skip
        if minutes > 0:
            open_holds.append(or_(~holder, Order.created_at > now - timedelta(minutes=minutes)))
    units = db.session.scalar(
        select(func.coalesce(func.sum(OrderItem.quantity), 0)).select_from(OrderItem).join(Order).where(*open_holds)
    )
    value = db.session.scalar(select(func.coalesce(func.sum(Order.total), 0)).where(*open_holds))
    return int(units or 0), Decimal(str(value or 0))


def _refuse_hold(message: str, *, scope: str, cap, wanted) -> None:
    raise Conflict(message, code=ErrorCode.HOLD_LIMIT,
                   details=[{"scope": scope, "limit": str(cap), "requested": str(wanted)}])  # fmt: skip


def _hold_client(client: str | None) -> str | None:
    """The client address as orders keep it: a keyed hash, never the address itself."""
    if not client:
        return None
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"hold-client:{client.strip().lower()}".encode("utf-8", "surrogatepass"),
                    hashlib.sha256).hexdigest()[:32]  # fmt: skip


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
    return bool(token) and hmac.compare_digest(token.encode("utf-8", "surrogatepass"), order.guest_token.encode())


def order_link_token(order: Order) -> str:
    """A signed, short-lived (ORDER_LINK_MINUTES) stand-in for the order's token, for links the shop hands out."""
    return _link_signer().dumps({"o": order.id, "t": _token_digest(order.guest_token)})


def token_from_link(order_id: int, link: str | None) -> str | None:
    """The order's token when `link` is a valid, unexpired link for this order; None otherwise."""
    if not link:
        return None
    try:
        data = _link_signer().loads(link, max_age=int(current_app.config.get("ORDER_LINK_MINUTES") or 60) * 60)
    except BadData:
        return None
    order = db.session.get(Order, order_id)
    if order is None or not isinstance(data, dict) or data.get("o") != order_id:
        return None
    return order.guest_token if hmac.compare_digest(str(data.get("t")), _token_digest(order.guest_token)) else None


def _link_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="insightshop-order-link")


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:24]


def list_orders(actor: Actor) -> list[Order]:
    """The signed-in user's orders, newest first."""
    user = actor.require_user()
    return list(db.session.scalars(select(Order).where(Order.user_id == user.id).order_by(Order.id.desc())))


def order_status(order_id: int, email: str, *, client: str | None = None) -> Order:
    """An order found by id and email; a wrong email looks exactly like a missing order. Failed lookups are
    limited per client, per order number and per email (429 rate_limited). The client's own limit is taken first
    (a hit gives it back); the per-order and per-email counters count only misses, after the check, so misses
    that others piled up on a number or an email never refuse its buyer's right number + email."""
    given_email = (email or "").strip().lower()
    attempt = rate_limits.take((LOOKUP_PER_CLIENT, client))
    order = db.session.get(Order, order_id)
    given = given_email.encode("utf-8", "surrogatepass")
    if order is not None and hmac.compare_digest(order.email.lower().encode("utf-8"), given):
        attempt.refund()
        return order
    rate_limits.take((LOOKUP_PER_ORDER, f"order:{order_id}"), (LOOKUP_PER_EMAIL, given_email or None))
    raise NotFound("No order matches that number and email")


def send_order_link(order: Order) -> bool:
    """Email the order's own address a signed, short-lived link to the whole order (a guest who looked it up from
    another browser); at most ORDER_LINK_MAILS_PER_ORDER, so lookups cannot flood a mailbox. Whether one went."""
    try:
        rate_limits.take((LINK_MAILS_PER_ORDER, f"order:{order.id}"))
    except rate_limits.RateLimited:
        return False
    order_events.announce(order, "link")
    db.session.commit()  # the email goes out once this commits
    return True


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


def _owner_key(actor: Actor) -> str:
    return f"u{actor.user.id}" if actor.user else f"g{actor.guest_id}"


def _actor_label(actor: Actor) -> str:
    return actor.user.email if actor.user else "guest"
