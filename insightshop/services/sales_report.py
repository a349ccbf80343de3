"""The shop's figures for an admin's question: revenue, paid orders and average order of a period, broken down by
department or clothing type, and compared with the period just before it. Revenue follows the dashboard's rule
(dashboard.counts_as_revenue); a breakdown sums the item lines (before shipping and tax)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from ..extensions import db
from ..models.catalog import Product
from ..models.orders import Order, OrderItem
from .dashboard import PERIODS, _midnight, counts_as_revenue, paid_orders
from .errors import Invalid
from .pricing import quantize, today

GROUPS = {"department": Product.category, "clothing_type": Product.clothing_type}


@dataclass
class Window:
    start: date | None
    end: date
    revenue: Decimal
    orders: int

    @property
    def average_order_value(self) -> Decimal:
        return quantize(self.revenue / self.orders) if self.orders else Decimal("0.00")


@dataclass
class Group:
    key: str
    revenue: Decimal
    units: int
    orders: int


@dataclass
class Report:
    period: str
    current: Window
    previous: Window | None = None
    group_by: str | None = None
    groups: list[Group] = field(default_factory=list)
    previous_groups: list[Group] = field(default_factory=list)


def window(start: date | None, end: date) -> Window:
    """Revenue and paid orders from start (None: ever) to end, both UTC days included."""
    paid = paid_orders(start, end)
    return Window(start, end, quantize(sum((total for _, total in paid), Decimal("0"))), len(paid))


def groups(start: date | None, end: date, group_by: str) -> list[Group]:
    """The period's item sales per department or clothing type, biggest first (items of deleted products: other)."""
    column = GROUPS[group_by]
    statement = (
        select(column, func.sum(OrderItem.line_total), func.sum(OrderItem.quantity), func.count(func.distinct(Order.id)))
        .select_from(OrderItem).join(Order, OrderItem.order_id == Order.id)
        .outerjoin(Product, OrderItem.product_id == Product.id)
        .where(*counts_as_revenue(), Order.paid_at < _midnight(end + timedelta(days=1)))
        .group_by(column)
    )  # fmt: skip
    if start is not None:
        statement = statement.where(Order.paid_at >= _midnight(start))
    found = [Group(key or "other", quantize(revenue or 0), int(units or 0), int(orders or 0))
             for key, revenue, units, orders in db.session.execute(statement)]  # fmt: skip
    return sorted(found, key=lambda g: (-g.revenue, g.key))


# The rolling periods (ending today) and the calendar month before this one ("revenue last month": all of October).
REPORT_PERIODS = (*PERIODS, "last_month")


def span(period: str, end: date) -> tuple[date | None, date]:
    """The first and last day of a period ending `end` (the calendar month before end's month for last_month)."""
    if period == "last_month":
        last_day = end.replace(day=1) - timedelta(days=1)
        return last_day.replace(day=1), last_day
    days = PERIODS[period]
    return (end - timedelta(days=days - 1) if days else None), end


def span_before(period: str, start: date) -> tuple[date, date]:
    """The period just before one starting `start`: as long (a calendar month: the month before)."""
    if period == "last_month":
        return span("last_month", start)
    before_end = start - timedelta(days=1)
    return before_end - timedelta(days=PERIODS[period] - 1), before_end


def sales_report(period: str = "week", *, compare: bool = False, group_by: str | None = None) -> Report:
    """The figures of a period (one ending today, or last calendar month); with compare, the same figures for the
    period just before it; with group_by (department, clothing_type), the item sales of each group in both."""
    if period not in REPORT_PERIODS:
        raise Invalid(
            f"period must be one of {', '.join(REPORT_PERIODS)}", details=[{"field": "period", "message": "unknown"}]
        )
    if group_by is not None and group_by not in GROUPS:
        raise Invalid(
            f"group_by must be one of {', '.join(GROUPS)}", details=[{"field": "group_by", "message": "unknown"}]
        )
    if compare and period == "all":
        raise Invalid("All time has no period before it to compare with",
                      details=[{"field": "compare", "message": "not with period all"}])  # fmt: skip
    start, end = span(period, today())
    report = Report(period, window(start, end), group_by=group_by)
    if compare and start is not None:
        before_start, before_end = span_before(period, start)
        report.previous = window(before_start, before_end)
        if group_by:
            report.previous_groups = groups(before_start, before_end, group_by)
    if group_by:
        report.groups = groups(start, end, group_by)
    return report


def change_percent(now: Decimal, before: Decimal) -> Decimal | None:
    """The change from before to now in percent, one decimal (None when before is 0)."""
    if not before:
        return None
    return ((now - before) / before * 100).quantize(Decimal("0.1"))
