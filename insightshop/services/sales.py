"""Sales: creating them, previewing their effect, and the automation that runs the calendar."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import select

from ..extensions import db
from ..models.sales import Sale
from .errors import Invalid
from .pricing import today as current_day


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def holiday_calendar(year: int) -> list[tuple[str, str, Decimal, str, date, date]]:
    """The recurring holiday sales of one year."""
    thanksgiving = _nth_weekday(year, 11, 3, 4)  # the fourth Thursday of November
    black_friday = thanksgiving + timedelta(days=1)
    cyber_monday = thanksgiving + timedelta(days=4)
    return [
        ("new-year", "New Year Sale", Decimal("20"), "Start the year with 20% off everything.", date(year, 1, 1), date(year, 1, 7)),
        ("summer", "Summer Sale", Decimal("15"), "15% off for the sunny season.", date(year, 7, 1), date(year, 7, 31)),
        ("black-friday", "Black Friday", Decimal("30"), "Our biggest sale: 30% off everything.", black_friday,
         black_friday + timedelta(days=2)),
        ("cyber-monday", "Cyber Monday", Decimal("25"), "25% off, one day only.", cyber_monday, cyber_monday),
    ]  # fmt: skip


@dataclass
class AutomationReport:
    activated: list[str] = field(default_factory=list)
    deactivated: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.activated or self.deactivated or self.created)


def run_sale_automation(day: date | None = None) -> AutomationReport:
    """Create the coming year's holiday sales if missing, start sales whose window opened, end expired ones."""
    day = day or current_day()
    report = AutomationReport()
    existing = set(db.session.scalars(select(Sale.slug).where(Sale.slug.is_not(None))))
    horizon = day + timedelta(days=365)
    for year in (day.year, day.year + 1):
        for key, name, percent, description, start, end in holiday_calendar(year):
            slug = f"{key}-{year}"
            if slug in existing or end < day or start > horizon:
                continue
            db.session.add(Sale(name=f"{name} {year}", slug=slug, description=description, discount_percentage=percent,
                                start_date=start, end_date=end, is_active=False, auto_activate=True))  # fmt: skip
            report.created.append(f"{name} {year}")
    db.session.flush()
    for sale in db.session.scalars(select(Sale)):
        running = sale.start_date <= day <= sale.end_date
        if sale.auto_activate and running and not sale.is_active:
            sale.is_active = True
            report.activated.append(sale.name)
        elif sale.is_active and sale.end_date < day:
            sale.is_active = False
            report.deactivated.append(sale.name)
    db.session.commit()
    return report


def create_sale(name: str, discount_percentage, start_date: date, end_date: date, *, description: str = "",
                is_active: bool = False, auto_activate: bool = True, categories=None, clothing_types=None,
                product_ids=None) -> Sale:  # fmt: skip
    """A new sale; its window must be in order and must not lie wholly in the past."""
    percent = Decimal(str(discount_percentage))
    if not Decimal(0) <= percent <= Decimal(100):
        raise Invalid(
            "discount_percentage must be from 0 to 100", details=[{"field": "discount_percentage", "message": "0–100"}]
        )
    if end_date < start_date:
        raise Invalid(
            "end_date must not be before start_date", details=[{"field": "end_date", "message": "before start_date"}]
        )
    if end_date < current_day():
        raise Invalid("The sale would already be over", details=[{"field": "end_date", "message": "in the past"}])
    sale = Sale(name=name.strip(), description=description, discount_percentage=percent, start_date=start_date,
                end_date=end_date, is_active=is_active, auto_activate=auto_activate, categories=categories or None,
                clothing_types=clothing_types or None, product_ids=product_ids or None)  # fmt: skip
    db.session.add(sale)
    db.session.commit()
    return sale
