"""The words of a receipts request as receipt filters: "over $100", "in October", "at Whole Foods", "on dairy".

Shared by the assistant's offline rules and the citation search (services never import the agent). Dates are
resolved against `today` (a month without a year is its latest occurrence not in the future)."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
MONTHS |= {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name}
MONTHS["sept"] = 9
MONTH_WORD = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
MONTH = re.compile(r"\b(" + MONTH_WORD + r")(?:\s+(\d{4}))?\b")
YEAR = re.compile(r"\b(?:in|during|for)\s+(20\d{2}|19\d{2})\b")
RELATIVE = (
    (re.compile(r"\btoday\b"), lambda t: (t, t)),
    (re.compile(r"\byesterday\b"), lambda t: (t - timedelta(days=1), t - timedelta(days=1))),
    (re.compile(r"\bthis\s+week\b"), lambda t: (t - timedelta(days=t.weekday()), t)),
    (
        re.compile(r"\blast\s+week\b"),
        lambda t: (t - timedelta(days=t.weekday() + 7), t - timedelta(days=t.weekday() + 1)),
    ),
    (re.compile(r"\b(?:this|current)\s+month\b"), lambda t: (t.replace(day=1), t)),
    (re.compile(r"\b(?:last|previous|past)\s+month\b"), lambda t: _month_span(*_previous_month(t))),
    (re.compile(r"\bthis\s+year\b|\bytd\b"), lambda t: (date(t.year, 1, 1), t)),
    (re.compile(r"\blast\s+year\b"), lambda t: (date(t.year - 1, 1, 1), date(t.year - 1, 12, 31))),
    (re.compile(r"\b(?:last|past)\s+(\d{1,3})\s+days\b"), None),
)
# "since 2019", "since March", "from 2021 on", "after May 2024": a start date, never an amount.
SINCE = re.compile(
    r"\b(?:since|after|from)\s+(?:(" + MONTH_WORD + r")\s+)?((?:19|20)\d{2})\b(?!\s*(?:to|-|and|until)\b)"
    r"|\bsince\s+(" + MONTH_WORD + r")\b"
)
AMOUNT = r"\$?\s*(\d{1,7}(?:[.,]\d{1,2})?)\s*(?:dollars|usd|bucks)?"
OVER = re.compile(r"\b(?:over|above|more\s+than|greater\s+than|bigger\s+than|>\s*)\s*" + AMOUNT)
AT_LEAST = re.compile(r"\b(?:at\s+least|minimum(?:\s+of)?|from)\s*" + AMOUNT + r"(?!\s*(?:to|-|and))")
UNDER = re.compile(r"\b(?:under|below|less\s+than|cheaper\s+than|smaller\s+than|<\s*)\s*" + AMOUNT)
AT_MOST = re.compile(r"\b(?:at\s+most|up\s+to|maximum(?:\s+of)?)\s*" + AMOUNT)
BETWEEN = re.compile(r"\bbetween\s*" + AMOUNT + r"\s*(?:and|to|-)\s*" + AMOUNT)
STOP = r"(?:in|on|during|last|this|over|under|above|below|since|for|between|from|at|and|with|more|less|before|after|today|yesterday)"
MERCHANT = re.compile(
    r"\b(?:at|from)\s+((?:(?!" + STOP + r"\b)[A-Za-z0-9&'.-]+)(?:\s+(?!" + STOP + r"\b)[A-Za-z0-9&'.-]+){0,4})", re.I
)
CATEGORY_WORDS = {
    "clothing": "Clothing", "clothes": "Clothing", "apparel": "Clothing", "footwear": "Footwear", "shoes": "Footwear",
    "accessories": "Accessories", "vegetables": "Vegetables", "veggies": "Vegetables", "fruit": "Fruits",
    "fruits": "Fruits", "meat": "Meat", "poultry": "Poultry", "seafood": "Seafood", "fish": "Seafood",
    "dairy": "Dairy", "bakery": "Bakery", "bread": "Bakery", "grains": "Grains", "condiments": "Condiments",
    "snacks": "Snacks", "beverages": "Beverages", "drinks": "Beverages", "prepared food": "Prepared Food",
    "eating out": "Prepared Food", "restaurants": "Prepared Food", "takeaway": "Prepared Food",
    "household": "Household", "cleaning": "Household", "personal care": "Personal Care",
    "toiletries": "Personal Care", "stationery": "Stationery", "electronics": "Electronics",
    "hardware": "Hardware", "tools": "Hardware", "toys": "Toys", "services": "Services",
}  # fmt: skip
CATEGORY = re.compile(r"\bon\s+(" + "|".join(sorted(CATEGORY_WORDS, key=len, reverse=True)) + r")\b")
NOT_MERCHANTS = {"receipt", "receipts", "my", "the", "all", "home", "work", "store", "shops", "stores"}


def receipt_filters(text: str, *, today: date) -> dict:
    """receipts_list arguments from the words of a request."""
    low = text.lower()
    arguments: dict = {}
    merchant = _merchant(text)
    if merchant:
        arguments["merchant"] = merchant
    span = _period(low, today)
    if span:
        arguments["date_from"], arguments["date_to"] = span[0].isoformat(), min(span[1], today).isoformat()
    arguments |= _amounts(low)
    category = CATEGORY.search(low)
    if category:
        arguments["category"] = CATEGORY_WORDS[category.group(1)]
    return arguments


def _merchant(text: str) -> str | None:
    for found in MERCHANT.finditer(text):
        name = re.sub(r"^(?:the|a|an)\s+", "", found.group(1).strip(" .?!,'"), flags=re.I)
        words = name.lower().split()
        if not words or words[0] in NOT_MERCHANTS or MONTH.fullmatch(name.lower()) or re.fullmatch(r"[\d$.,]+", name):
            continue
        return name[:100]
    return None


def _period(low: str, today: date) -> tuple[date, date] | None:
    since = SINCE.search(low)
    if since:
        return _since(since, today), today
    for pattern, span in RELATIVE:
        found = pattern.search(low)
        if found:
            if span is None:
                return today - timedelta(days=int(found.group(1)) - 1), today
            return span(today)
    month = next((m for m in MONTH.finditer(low) if _is_month(m, low)), None)
    if month:
        number = MONTHS[month.group(1).rstrip(".")]
        year = int(month.group(2)) if month.group(2) else (today.year if number <= today.month else today.year - 1)
        return _month_span(year, number)
    year = YEAR.search(low)
    if year:
        return date(int(year.group(1)), 1, 1), date(int(year.group(1)), 12, 31)
    return None


def _since(found: re.Match, today: date) -> date:
    if found.group(3):  # "since March": its latest start not in the future
        number = MONTHS[found.group(3).rstrip(".")]
        return date(today.year if number <= today.month else today.year - 1, number, 1)
    month = MONTHS[found.group(1).rstrip(".")] if found.group(1) else 1
    return date(int(found.group(2)), month, 1)


def _is_month(found: re.Match, low: str) -> bool:
    # "may" is a month only with a year or after a preposition ("in May", "from may 2026"), not "may I see…".
    if found.group(1) != "may" or found.group(2):
        return True
    return bool(re.search(r"\b(?:in|during|for|of|from|since|until)\s+$", low[: found.start()]))


def _amounts(low: str) -> dict:
    between = BETWEEN.search(low)
    if between:
        first, second = sorted((_number(between.group(1)), _number(between.group(2))))
        return {"min_amount": first, "max_amount": second}
    bounds = {}
    if found := OVER.search(low):
        bounds["min_amount"] = round(_number(found.group(1)) + 0.01, 2)
    elif (found := AT_LEAST.search(low)) and not _is_year_start(found, low):
        bounds["min_amount"] = _number(found.group(1))
    if found := UNDER.search(low):
        bounds["max_amount"] = max(0, round(_number(found.group(1)) - 0.01, 2))
    elif found := AT_MOST.search(low):
        bounds["max_amount"] = _number(found.group(1))
    return bounds


def _is_year_start(found: re.Match, low: str) -> bool:
    return (
        bool(SINCE.search(low)) and "$" not in found.group(0) and bool(re.fullmatch(r"(?:19|20)\d{2}", found.group(1)))
    )


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _previous_month(today: date) -> tuple[int, int]:
    return (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
