"""The admin dashboard's numbers: revenue per day, orders by status, top products, sale uplift, low stock."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from ..extensions import db
from ..models.orders import ORDER_STATUSES, Order, OrderItem
from ..models.sales import Sale
from .pricing import today


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


def revenue_by_day(days: int = 30, end: date | None = None) -> list[DayRevenue]:
    """Paid revenue for each of the last `days` days (zero days included)."""
    end = end or today()
    start = end - timedelta(days=days - 1)
    totals: dict[date, list] = defaultdict(lambda: [Decimal("0.00"), 0])
    rows = db.session.execute(
        select(Order.paid_at, Order.total).where(Order.paid_at.is_not(None), Order.status != "cancelled")
    )
    for paid_at, total in rows:
        day = paid_at.date()
        if start <= day <= end:
            totals[day][0] += total
            totals[day][1] += 1
    return [DayRevenue(start + timedelta(days=i), *totals[start + timedelta(days=i)]) for i in range(days)]


def orders_by_status() -> dict[str, int]:
    counts = dict(db.session.execute(select(Order.status, func.count()).group_by(Order.status)).all())
    return {status: counts.get(status, 0) for status in ORDER_STATUSES}


def top_products(limit: int = 10) -> list[tuple[str, int, Decimal]]:
    """Best sellers of paid orders: (name, units, revenue)."""
    statement = (
        select(OrderItem.name, func.sum(OrderItem.quantity), func.sum(OrderItem.line_total))
        .join(Order).where(Order.paid_at.is_not(None), Order.status != "cancelled")
        .group_by(OrderItem.name).order_by(func.sum(OrderItem.quantity).desc()).limit(limit)
    )  # fmt: skip
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
