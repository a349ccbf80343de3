"""Mapping a model's values back onto the receipt's text (claude_evidence) and refusing values the shop cannot
trust (claude_checks)."""

from datetime import date
from decimal import Decimal

import pytest

from insightshop.services.receipts.document import ReceiptDocument
from insightshop.services.receipts.extraction.claude_checks import check_amount, check_date, check_line
from insightshop.services.receipts.extraction.claude_evidence import (
    ELSEWHERE,
    STATED,
    locate_amount,
    locate_date,
    locate_text,
)


def printed(document, found):
    (evidence,) = found.evidence
    return document.lines[evidence.line_index].text[evidence.start : evidence.end]


@pytest.mark.parametrize(
    "line, value, expected",
    [
        ("TOTAL RM9.00", "9.00", "9.00"),
        ("TOTAL 9,00 EUR", "9.00", "9,00"),
        ("Summe 1.234,50", "1234.50", "1.234,50"),
        ("TOTAL $1,234.50", "1234.50", "1,234.50"),
        ("Total 1 234,50 €", "1234.50", "1 234,50"),
        ("GOKEI ¥1200", "1200", "1200"),
        ("2 x 4.50   9.00", "9.00", "9.00"),
        ("KWD 12.345", "12.345", "12.345"),
    ],
)
def test_an_amount_is_found_as_printed(line, value, expected):
    document = ReceiptDocument.from_lines([line])

    found = locate_amount(document, Decimal(value), 0)

    assert printed(document, found) == expected and found.factor == STATED


def test_an_amount_is_not_found_inside_a_longer_number():
    document = ReceiptDocument.from_lines(["TOTAL 19.00", "CARD 119.005"])

    assert locate_amount(document, Decimal("9.00"), 0).evidence == ()


def test_a_whole_amount_without_decimals_counts_only_on_the_stated_line():
    document = ReceiptDocument.from_lines(["Date 14/10/2026", "TOTAL 14"])

    assert locate_amount(document, Decimal("14"), None).evidence == ()
    assert printed(document, locate_amount(document, Decimal("14"), 1)) == "14"


def test_an_amount_on_another_line_is_found_nearest_first_with_less_confidence():
    document = ReceiptDocument.from_lines(["Milk 4.50", "SUBTOTAL", "TOTAL", "4.50", "CASH 10.00"])

    found = locate_amount(document, Decimal("4.50"), 2)

    assert found.evidence[0].line_index == 3 and found.factor == ELSEWHERE and found.confidence(0.9) == 0.765


@pytest.mark.parametrize(
    "line, day",
    [
        ("Date: 11/10/2026 18:02", date(2026, 10, 11)),
        ("Date: 11/10/2026 18:02", date(2026, 11, 10)),
        ("2026-10-11", date(2026, 10, 11)),
        ("11.10.26", date(2026, 10, 11)),
        ("Oct 11, 2026", date(2026, 10, 11)),
        ("11 October 2026", date(2026, 10, 11)),
        ("11-OCT-26 09:15", date(2026, 10, 11)),
    ],
)
def test_a_date_is_found_in_any_reading_that_gives_the_day(line, day):
    document = ReceiptDocument.from_lines(["SHOP", line])

    assert locate_date(document, day, 1).evidence[0].line_index == 1


def test_a_date_no_reading_gives_is_not_found():
    document = ReceiptDocument.from_lines(["Date: 11/10/2026"])

    assert locate_date(document, date(2026, 10, 12), 0).evidence == ()


def test_text_is_found_whatever_its_case_and_spacing():
    document = ReceiptDocument.from_lines(["WHOLE  FOODS MARKET #123"])

    assert printed(document, locate_text(document, "Whole Foods Market", 0)) == "WHOLE  FOODS MARKET"


def test_a_value_not_in_the_text_keeps_at_most_a_low_confidence():
    document = ReceiptDocument.from_lines(["CORNER MARKET"])

    found = locate_text(document, "Whole Foods Market", 0)

    assert found.evidence == () and found.confidence(0.95) == 0.3


@pytest.mark.parametrize("raw", ["16,96", "RM16.96", "-1.00", "0", "1e5", "NaN", True, "100000000.00", "1.2345"])
def test_amounts_the_shop_refuses(raw):
    assert check_amount("total_amount", raw).rejected


@pytest.mark.parametrize("raw", ["2026-02-30", "2026-10-21", "11/10/2026", "1989-12-31", 20261011])
def test_dates_the_shop_refuses(raw):
    assert check_date(raw, date(2026, 10, 20)).rejected


def test_line_numbers_are_one_based_and_must_exist():
    assert check_line("total", 3, 3).value == 2
    assert check_line("total", 0, 3).value is None and not check_line("total", 0, 3).rejected
    assert check_line("total", 4, 3).rejected and check_line("total", "2", 3).rejected
