"""Seed 000's validation rules, one by one: errors make an extraction invalid, warnings only inform."""

from datetime import date, timedelta

import pytest

from insightshop.services.receipts.validation import validate_extraction

TODAY = date(2026, 11, 24)
GOOD = {"merchant_name": "Corner Market", "purchase_date": "2026-10-14", "total_amount": "14.83",
        "subtotal": "13.73", "tax_amount": "1.10", "items": [{"total_price": "9.73"}, {"total_price": "5.10"}]}  # fmt: skip


def check(**changes):
    return validate_extraction({**GOOD, **changes}, today=TODAY)


def test_a_consistent_receipt_is_valid_without_warnings():
    result = check()
    assert (result.valid, result.errors, result.warnings) == (True, [], [])


@pytest.mark.parametrize("items, warned", [
    ([{"total_price": "14.83"}], False),
    ([{"total_price": "14.10"}], False),  # 4.9% under the total
    ([{"total_price": "15.57"}], False),  # 4.99% over
    ([{"total_price": "14.00"}], True),  # 5.6% under
    ([{"total_price": "3.00"}], True),
])  # fmt: skip
def test_items_summing_beyond_five_percent_of_the_total_only_warn(items, warned):
    result = check(items=items)
    assert result.valid
    assert bool(result.warnings) is warned
    if warned:
        assert result.warnings[0].startswith("Total amount mismatch: sum(items)=")


def test_a_purchase_date_in_the_future_is_an_error_and_today_is_fine():
    assert check(purchase_date=(TODAY + timedelta(days=1)).isoformat()).errors == [
        "Purchase date 2026-11-25 is in the future"
    ]
    assert check(purchase_date=TODAY.isoformat()).valid


@pytest.mark.parametrize("value", ["2026-02-30", "14/10/2026", "yesterday"])
def test_a_date_that_is_not_a_calendar_date_is_an_error(value):
    result = check(purchase_date=value)
    assert not result.valid and "is not a date" in result.errors[0]


@pytest.mark.parametrize("field, value", [("total_amount", "0"), ("total_amount", "-4.00"), ("subtotal", "-1"),
                                          ("tax_amount", "-0.01"), ("total_amount", "NaN"), ("total_amount", "abc")])  # fmt: skip
def test_amounts_must_be_positive_numbers(field, value):
    assert not check(**{field: value}).valid


def test_a_tax_of_zero_is_allowed():
    assert check(tax_amount="0.00").valid


def test_an_item_with_a_non_positive_price_is_an_error():
    assert not check(items=[{"total_price": "14.83"}, {"total_price": "0.00"}]).valid


def test_at_least_one_item_is_required():
    assert check(items=[]).errors == ["No line items were extracted"]


@pytest.mark.parametrize("merchant", [None, "", "   "])
def test_the_merchant_name_must_not_be_empty(merchant):
    assert check(merchant_name=merchant).errors == ["Merchant name is empty"]


def test_missing_total_and_date_are_errors():
    result = check(total_amount=None, purchase_date=None)
    assert "Total amount is missing" in result.errors and "Purchase date is missing" in result.errors
