"""The admin dashboard's numbers: revenue per day, orders by status, top products, sale uplift, low stock."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from ..extensions import db
from ..models.catalog import ProductVariant
from ..models.orders import ORDER_STATUSES, Order, OrderItem
from ..models.sales import Sale
from .admin_shop import low_stock_variants
from .errors import Invalid
from .pricing import quantize, today

# A period of the dashboard tool -> how many days it spans, ending today (None: since the first order).
PERIODS = {"today": 1, "week": 7, "month": 30, "year": 365, "all": None}


@dataclass
class DayRevenue:
    day: date
    revenue: Decimal
    orders: int


@dataclass
class SaleUplift:
    sale: Sale
    daily_during: Decimal
    daily_before: Decimal

    @property
    def uplift_percent(self) -> Decimal | None:
        if self.daily_before == 0:
            return None
        return ((self.daily_during - self.daily_before) / self.daily_before * 100).quantize(Decimal("0.1"))


def counts_as_revenue() -> tuple:
    """The one revenue rule: an order counts once it is paid, unless it was cancelled (and so refunded)."""
    return Order.paid_at.is_not(None), Order.status != "cancelled"


def paid_orders(start: date | None, end: date) -> list[tuple[date, Decimal]]:
    """(day paid, total) of every order that counts as revenue, paid from `start` (None: ever) to `end` (UTC days)."""
    statement = select(Order.paid_at, Order.total).where(*counts_as_revenue())
    if start is not None:
        statement = statement.where(Order.paid_at >= _midnight(start))
    statement = statement.where(Order.paid_at < _midnight(end + timedelta(days=1)))
    return [(paid_at.date(), total) for paid_at, total in db.session.execute(statement)]


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def revenue_by_day(days: int = 30, end: date | None = None) -> list[DayRevenue]:
    """Paid revenue for each of the last `days` days (zero days included)."""
    end = end or today()
    start = end - timedelta(days=days - 1)
    totals: dict[date, list] = defaultdict(lambda: [Decimal("0.00"), 0])
    for day, total in paid_orders(start, end):
        totals[day][0] += total
        totals[day][1] += 1
    return [DayRevenue(start + timedelta(days=i), *totals[start + timedelta(days=i)]) for i in range(days)]


def orders_by_status(since: date | None = None) -> dict[str, int]:
    """How many orders are in each status (placed since a day, when given)."""
    statement = select(Order.status, func.count()).group_by(Order.status)
    if since is not None:
        statement = statement.where(Order.created_at >= _midnight(since))
    counts = dict(db.session.execute(statement).all())
    return {status: counts.get(status, 0) for status in ORDER_STATUSES}


@dataclass
class Summary:
    period: str
    start: date | None
    end: date
    revenue: Decimal
    orders: int
    by_status: dict[str, int]
    low_stock: list[ProductVariant]

    @property
    def average_order_value(self) -> Decimal:
        return quantize(self.revenue / self.orders) if self.orders else Decimal("0.00")


def summary(period: str = "week", low_stock_threshold: int = 5, low_stock_limit: int = 20) -> Summary:
    """The shop's figures for a period ending today: revenue and number of paid orders (the dashboard's revenue
    rule), average order value, orders placed by status, and active variants at or below the stock threshold."""
    if period not in PERIODS:
        raise Invalid(
            f"period must be one of {', '.join(PERIODS)}", details=[{"field": "period", "message": "unknown"}]
        )
    end = today()
    days = PERIODS[period]
    start = end - timedelta(days=days - 1) if days else None
    paid = paid_orders(start, end)
    revenue = quantize(sum((total for _, total in paid), Decimal("0")))
    return Summary(period, start, end, revenue, len(paid), orders_by_status(start),
                   low_stock_variants(low_stock_threshold, low_stock_limit))  # fmt: skip


def top_products(limit: int = 10, since: date | None = None, *, by: str = "units") -> list[tuple[str, int, Decimal]]:
    """Best sellers of paid orders (paid since a day, when given): (name, units, revenue), by units or revenue."""
    ranking = func.sum(OrderItem.line_total) if by == "revenue" else func.sum(OrderItem.quantity)
    statement = (
        select(OrderItem.name, func.sum(OrderItem.quantity), func.sum(OrderItem.line_total))
        .join(Order).where(*counts_as_revenue())
        .group_by(OrderItem.name).order_by(ranking.desc(), OrderItem.name).limit(limit)
    )  # fmt: skip
    if since is not None:
        statement = statement.where(Order.paid_at >= _midnight(since))
    return [(name, int(units), Decimal(revenue)) for name, units, revenue in db.session.execute(statement)]


def sale_uplift(limit: int = 5) -> list[SaleUplift]:
    """Daily revenue while each recent sale ran, next to the same number of days before it."""
    results = []
    for sale in db.session.scalars(
        select(Sale).where(Sale.start_date <= today()).order_by(Sale.start_date.desc()).limit(limit)
    ):
        end = min(sale.end_date, today())
        length = (end - sale.start_date).days + 1
        during = revenue_by_day(length, end)
        before = revenue_by_day(length, sale.start_date - timedelta(days=1))
        results.append(SaleUplift(sale, sum((d.revenue for d in during), Decimal(0)) / length,
                                  sum((d.revenue for d in before), Decimal(0)) / length))  # fmt: skip
    return results
