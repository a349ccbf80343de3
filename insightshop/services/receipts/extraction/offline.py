"""The offline extraction engine: deterministic rules, pure Python, no network.

  normalise (normalise.py)  position-keeping forms of each line; OCR digit/letter confusions undone; label words
                            corrected when one letter off
  locate    (locate.py)     amounts (amounts.py), labels (labels.py), dates (dates.py), the country, and which
                            label each amount belongs to
  fields    (totals.py)     total, subtotal, tax, currency;  (merchant.py) merchant name and address;
            (dates.py)      the purchase date, day or month first decided per receipt
  items     (items.py)      line items between the header and the totals
Every value carries evidence: the line and the character span it was read from.
"""

from __future__ import annotations

import datetime as dt

from ..document import Evidence, ExtractedValue, ReceiptDocument, ReceiptExtraction
from . import vocabulary
from .dates import PurchaseDate, choose_purchase_date
from .items import find_items
from .labels import LEXICON
from .locate import Located, locate
from .merchant import TextField, find_address, find_merchant
from .normalise import normalise
from .totals import Chosen, Currency, MoneyFields, money_fields

ENGINE_NAME = "offline-rules-1"
EMPTY = ExtractedValue(None, 0.0)


def extract(document: ReceiptDocument, *, today: dt.date | None = None) -> ReceiptExtraction:
    """Read merchant, address, date, currency, subtotal, tax, total and line items from a document."""
    today = today or dt.date.today()
    located = locate(normalise(document, LEXICON))
    money = money_fields(located)
    merchant = find_merchant(located)
    purchase = choose_purchase_date(located.lines, list(located.dates), _month_first_hint(located, money), today)
    items = find_items(located, money)
    fields = {
        "merchant_name": _text_value(merchant),
        "merchant_address": _text_value(find_address(located, merchant)),
        "purchase_date": _date_value(purchase),
        "currency": _currency_value(money.currency),
        "subtotal": _money_value(money.subtotal),
        "tax_amount": _money_value(money.tax),
        "total_amount": _money_value(money.total),
    }
    return ReceiptExtraction(**fields, items=items, confidence=_overall(fields), engine=ENGINE_NAME)


def _month_first_hint(located: Located, money: MoneyFields) -> bool | None:
    """Month first for US receipts (by country, else by a USD total); None when nothing says."""
    if located.country is not None:
        return located.country in vocabulary.MONTH_FIRST_COUNTRIES
    if money.currency is not None:
        return money.currency.code in vocabulary.MONTH_FIRST_CURRENCIES
    return None


def _evidence(spans) -> tuple[Evidence, ...]:
    return tuple(Evidence(line, start, end) for line, start, end in spans)


def _text_value(field: TextField | None) -> ExtractedValue:
    return ExtractedValue(field.value, field.confidence, _evidence(field.spans)) if field else EMPTY


def _date_value(purchase: PurchaseDate | None) -> ExtractedValue:
    if purchase is None:
        return EMPTY
    hit = purchase.hit
    return ExtractedValue(purchase.value.isoformat(), purchase.confidence, (Evidence(hit.line, hit.start, hit.end),))


def _currency_value(currency: Currency | None) -> ExtractedValue:
    return ExtractedValue(currency.code, currency.confidence, _evidence(currency.spans)) if currency else EMPTY


def _money_value(chosen: Chosen | None) -> ExtractedValue:
    if chosen is None:
        return EMPTY
    amount = chosen.item.amount
    return ExtractedValue(amount.value, chosen.confidence, (Evidence(amount.line, amount.start, amount.end),))


def _overall(fields: dict[str, ExtractedValue]) -> float:
    """The receipt's confidence: the mean over the fields every receipt has (merchant, date, total)."""
    key = [fields[name].confidence for name in ("merchant_name", "purchase_date", "total_amount")]
    return round(sum(key) / len(key), 2)
