"""Prices: the one place that says what a product costs now (the best running sale applied).
Money is Decimal, rounded half-up to cents; nothing here ever reads a price from a request."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from flask import current_app, g, has_app_context
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ..extensions import db
from ..models.base import utcnow
from ..models.catalog import Product
from ..models.sales import Sale

CENT = Decimal("0.01")
HUNDRED = Decimal("100")


def quantize(amount) -> Decimal:
    """Round money to cents, half up."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def line_total(unit_price: Decimal, quantity: int) -> Decimal:
    return quantize(unit_price * quantity)


def today() -> date:
    return utcnow().date()


# A page prices dozens of products (cards, cart lines, facets): the running sales are read once per app context
# and forgotten whenever the session commits, rolls back or flushes a sale, so a price is never older than the
# transaction that reads it. Requests start without it (forget_running_sales runs before each one).
_MEMO_KEY = "_running_sales"


def running_sales(day: date | None = None) -> list[Sale]:
    """Sales that are active and whose window contains the day."""
    day = day or today()
    memo = g.get(_MEMO_KEY) if has_app_context() else None
    if memo is not None and memo[0] == day:
        return list(memo[1])
    statement = select(Sale).where(Sale.is_active, Sale.start_date <= day, Sale.end_date >= day)
    sales = list(db.session.scalars(statement.order_by(Sale.discount_percentage.desc(), Sale.id)))
    if has_app_context():
        setattr(g, _MEMO_KEY, (day, sales))
    return list(sales)


def forget_running_sales(*_args) -> None:
    """Drop the memo of running sales (a new request, a commit, a rollback, a sale written)."""
    if has_app_context():
        g.pop(_MEMO_KEY, None)


def _forget_after_sale_flush(session: Session, _flush_context) -> None:
    if any(isinstance(obj, Sale) for obj in (*session.new, *session.dirty, *session.deleted)):
        forget_running_sales()


def install_memo_reset(session_class=Session) -> None:
    """Forget the memo whenever a session's transaction ends or a flush writes a sale."""
    for name, listener in (
        ("after_commit", forget_running_sales),
        ("after_soft_rollback", forget_running_sales),
        ("after_flush", _forget_after_sale_flush),
    ):
        if not event.contains(session_class, name, listener):
            event.listen(session_class, name, listener)


def next_price_change(now: datetime | None = None) -> datetime | None:
    """When prices next change with no write: the next UTC midnight at which an active sale starts or ends."""
    day = (now or utcnow()).date()
    starts, ends = db.session.execute(
        select(
            func.min(Sale.start_date).filter(Sale.start_date > day),
            func.min(Sale.end_date).filter(Sale.end_date >= day),
        ).where(Sale.is_active)
    ).one()
    boundaries = [d for d in (starts, ends and ends + timedelta(days=1)) if d]
    return datetime.combine(min(boundaries), time.min, tzinfo=UTC) if boundaries else None


@dataclass(frozen=True)
class Price:
    list_price: Decimal
    price: Decimal
    sale: Sale | None

    @property
    def on_sale(self) -> bool:
        return self.sale is not None and self.price < self.list_price

    @property
    def saving(self) -> Decimal:
        return self.list_price - self.price


class PriceBook:
    """Prices for one moment: the running sales are read once, then applied to any number of products."""

    def __init__(self, sales: list[Sale] | None = None, day: date | None = None):
        self.sales = running_sales(day) if sales is None else sales

    def price_of(self, product: Product) -> Price:
        """The product's list price, its price now and the sale that gives it (the biggest discount wins)."""
        list_price = quantize(product.price)
        best = next((sale for sale in self.sales if sale.applies_to(product)), None)
        if best is None or best.discount_percentage <= 0:
            return Price(list_price, list_price, None)
        discounted = quantize(list_price * (HUNDRED - Decimal(best.discount_percentage)) / HUNDRED)
        return Price(list_price, discounted, best)

    def effective_price(self, product: Product) -> Decimal:
        return self.price_of(product).price


def effective_price(product: Product) -> Decimal:
    """What one unit costs today (convenience for a single product)."""
    return PriceBook().effective_price(product)


@dataclass(frozen=True)
class Totals:
    subtotal: Decimal  # at list prices
    discount: Decimal  # what sales take off
    shipping: Decimal
    tax: Decimal
    total: Decimal

    @property
    def items_subtotal(self) -> Decimal:
        """The lines at the prices paid: the one subtotal shown everywhere (Order.items_subtotal)."""
        return self.subtotal - self.discount


SHIPPING_METHODS = ("standard", "express")
# What a shopper reads about each method (the checkout page, the assistant's shop answers).
SHIPPING_LABELS = {"standard": ("Standard", "3–5 business days"), "express": ("Express", "1–2 business days")}


@dataclass(frozen=True)
class DeliveryOption:
    method: str
    name: str
    days: str
    cost: Decimal


def delivery_options(merchandise: Decimal) -> list[DeliveryOption]:
    """Every shipping method with what it costs for this much merchandise."""
    return [
        DeliveryOption(method, *SHIPPING_LABELS[method], shipping_cost(method, merchandise))
        for method in SHIPPING_METHODS
    ]


def free_shipping_threshold() -> Decimal:
    """Merchandise from which standard shipping is free."""
    return quantize(current_app.config["FREE_SHIPPING_FROM"])


@dataclass(frozen=True)
class FreeShippingProgress:
    remaining: Decimal  # 0 once standard shipping is free
    percent: int  # 0–100, for the progress bar


def free_shipping_progress(merchandise: Decimal) -> FreeShippingProgress:
    """How far a cart is from free standard shipping."""
    threshold = free_shipping_threshold()
    remaining = max(Decimal("0.00"), quantize(threshold - merchandise))
    percent = 100 if threshold <= 0 else min(100, int(merchandise * 100 / threshold))
    return FreeShippingProgress(remaining, percent)


def shipping_cost(method: str, merchandise: Decimal) -> Decimal:
    """Standard is free from the configured threshold; express always costs its rate."""
    config = current_app.config
    if method == "express":
        return quantize(config["SHIPPING_EXPRESS"])
    if merchandise >= free_shipping_threshold():
        return Decimal("0.00")
    return quantize(config["SHIPPING_STANDARD"])


def totals(lines: list[tuple[Price, int]], method: str = "standard") -> Totals:
    """Order totals from (price, quantity) pairs: list subtotal, sale discount, shipping, tax, total."""
    subtotal = quantize(sum((p.list_price * q for p, q in lines), Decimal("0")))
    merchandise = quantize(sum((p.price * q for p, q in lines), Decimal("0")))
    discount = subtotal - merchandise
    shipping = shipping_cost(method, merchandise) if lines else Decimal("0.00")
    tax = quantize(merchandise * Decimal(str(current_app.config["TAX_RATE"])))
    return Totals(subtotal, discount, shipping, tax, quantize(merchandise + shipping + tax))
