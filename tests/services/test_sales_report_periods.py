"""The sales report's calendar period: last_month is the whole calendar month before today's, and the period before
it the month before that (January reaches back into December)."""

from datetime import date

import pytest

from insightshop.services.errors import Invalid
from insightshop.services.sales_report import sales_report, span, span_before


@pytest.mark.parametrize(
    ("today", "month", "before"),
    [
        (date(2026, 11, 29), (date(2026, 10, 1), date(2026, 10, 31)), (date(2026, 9, 1), date(2026, 9, 30))),
        (date(2026, 1, 1), (date(2025, 12, 1), date(2025, 12, 31)), (date(2025, 11, 1), date(2025, 11, 30))),
        (date(2028, 3, 15), (date(2028, 2, 1), date(2028, 2, 29)), (date(2028, 1, 1), date(2028, 1, 31))),
    ],
)
def test_last_month_is_the_calendar_month_before_and_its_comparison_the_one_before_that(today, month, before):
    assert span("last_month", today) == month
    assert span_before("last_month", month[0]) == before


def test_the_rolling_periods_are_unchanged():
    assert span("month", date(2026, 11, 29)) == (date(2026, 10, 31), date(2026, 11, 29))
    assert span_before("week", date(2026, 11, 23)) == (date(2026, 11, 16), date(2026, 11, 22))
    assert span("all", date(2026, 11, 29)) == (None, date(2026, 11, 29))


def test_an_unknown_period_is_refused_naming_last_month_among_the_known(app):
    with pytest.raises(Invalid) as refused:
        sales_report("fortnight")
    assert "last_month" in str(refused.value)
