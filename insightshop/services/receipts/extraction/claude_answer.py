"""What the model recorded with its tools, checked and mapped back onto the document: each value with evidence
(line and span as printed) and a confidence from the model's own, lowered when the text does not contain the value
or an item's arithmetic does not add up. Problems go back to the model in the tool result."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ..document import ExtractedItem, ExtractedValue, ReceiptDocument, ReceiptExtraction
from .claude_checks import (
    Checked,
    check_amount,
    check_confidence,
    check_currency,
    check_date,
    check_line,
    check_quantity,
    check_text,
)
from .claude_evidence import (
    Found,
    locate_amount,
    locate_currency,
    locate_date,
    locate_quantity,
    locate_text,
)

MONEY_FIELDS = ("subtotal", "tax_amount", "total_amount")
FIELDS = ("merchant_name", "merchant_address", "purchase_date", "currency", *MONEY_FIELDS)
REJECTED = 0.1  # the confidence of a value the model gave but the shop refused (it is null)
ABSENT_VALUE = ExtractedValue(None, 0.0)
MAX_ITEMS = 500
ARITHMETIC_TOLERANCE = Decimal("0.02")  # qty × unit may differ from the total by rounding (weights: 1.234 kg)
ARITHMETIC_OFF = 0.4  # the most confidence an item keeps when qty × unit is not its total
UNCONFIRMED_PART = 0.9  # an item's quantity or unit price not found in its line


@dataclass
class Answer:
    """The extraction as the model has recorded it so far (latest call of each tool wins)."""

    values: dict[str, ExtractedValue] = field(default_factory=lambda: dict.fromkeys(FIELDS, ABSENT_VALUE))
    items: tuple[ExtractedItem, ...] = ()
    metadata_recorded: bool = False
    items_recorded: bool = False

    def plain(self) -> dict:
        """The values as validate_extraction reads them."""
        data = {name: value.value for name, value in self.values.items()}
        data["items"] = [{"total_price": item.total_price} for item in self.items]
        return data

    def extraction(self, engine: str) -> ReceiptExtraction:
        key = [self.values[name].confidence for name in ("merchant_name", "purchase_date", "total_amount")]
        return ReceiptExtraction(**self.values, items=self.items, confidence=round(sum(key) / len(key), 3),
                                 engine=engine)  # fmt: skip


def record_metadata(answer: Answer, arguments: dict, document: ReceiptDocument, today: date) -> list[str]:
    """extract_receipt_metadata: check and locate each field; the problems, for the model."""
    base = check_confidence(arguments.get("confidence"))
    lines = arguments.get("lines") if isinstance(arguments.get("lines"), dict) else {}
    problems: list[str] = []
    values = {}
    for name in FIELDS:
        checked = _check_field(name, arguments.get(name), today)
        line = check_line(name, lines.get(name), len(document.lines))
        problems += [c.problem for c in (checked, line) if c.rejected]
        values[name] = _located_value(name, checked, line.value, document, base, problems)
    answer.values, answer.metadata_recorded = values, True
    return problems


def record_items(answer: Answer, arguments: dict, document: ReceiptDocument) -> list[str]:
    """extract_line_items: check, locate and verify each item's arithmetic; the problems, for the model."""
    base = check_confidence(arguments.get("confidence"))
    raw_items = arguments.get("items") if isinstance(arguments.get("items"), list) else []
    problems: list[str] = []
    if len(raw_items) > MAX_ITEMS:
        problems.append(f"only the first {MAX_ITEMS} items were kept")
    items = []
    for position, raw in enumerate(raw_items[:MAX_ITEMS], 1):
        item = _item(len(items) + 1, raw if isinstance(raw, dict) else {}, document, base, problems, position)
        if item is not None:
            items.append(item)
    answer.items, answer.items_recorded = tuple(items), True
    return problems


def _check_field(name: str, raw, today: date) -> Checked:
    if name in MONEY_FIELDS:
        return check_amount(name, raw, allow_zero=name == "tax_amount")
    if name == "purchase_date":
        return check_date(raw, today)
    if name == "currency":
        return check_currency(raw)
    return check_text(name, raw)


def _located_value(name: str, checked: Checked, line: int | None, document, base: float, problems) -> ExtractedValue:
    if checked.value is None:
        return ExtractedValue(None, REJECTED) if checked.rejected else ABSENT_VALUE
    found = _locate(name, checked.value, line, document)
    if not found.evidence and document.lines:
        problems.append(f"{name} {checked.value} is not in the receipt's text; kept with low confidence — "
                        "correct it if misread, or null it if it is not printed")  # fmt: skip
    elif line is not None and found.evidence[0].line_index != line:
        problems.append(f"{name} {checked.value} is printed on line {found.evidence[0].line_index + 1}, "
                        f"not line {line + 1}")  # fmt: skip
    return ExtractedValue(checked.value, found.confidence(base), found.evidence)


def _locate(name: str, value, line: int | None, document: ReceiptDocument) -> Found:
    if name in MONEY_FIELDS:
        return locate_amount(document, value, line)
    if name == "purchase_date":
        return locate_date(document, date.fromisoformat(value), line)
    if name == "currency":
        return locate_currency(document, value, line)
    return locate_text(document, value, line)


def _item(number: int, raw: dict, document, base: float, problems: list[str], position: int) -> ExtractedItem | None:
    label = f"item {position}"
    name = check_text("item_name", raw.get("item_name"))
    total = check_amount(f"{label} total_price", raw.get("total_price"))
    if name.value is None or total.value is None:
        problems.append(f"{label} was left out: it needs a name and a positive total_price"
                        + (f" ({total.problem})" if total.problem else ""))  # fmt: skip
        return None
    quantity = check_quantity(f"{label} quantity", raw.get("quantity"))
    unit = check_amount(f"{label} unit_price", raw.get("unit_price"))
    line = check_line(label, raw.get("line"), len(document.lines))
    problems += [c.problem for c in (quantity, unit, line) if c.rejected]
    found = {
        "item_name": locate_text(document, name.value, line.value),
        "total_price": locate_amount(document, total.value, line.value),
        "quantity": locate_quantity(document, quantity.value, line.value) if quantity.value else None,
        "unit_price": locate_amount(document, unit.value, line.value) if unit.value else None,
    }
    confidence = _item_confidence(label, found, base, problems if document.lines else [])
    if quantity.value and unit.value and abs(quantity.value * unit.value - total.value) > ARITHMETIC_TOLERANCE:
        problems.append(f"{label}: {quantity.value} × {unit.value} is not its total_price {total.value}")
        confidence = min(confidence, ARITHMETIC_OFF)
    return ExtractedItem(line_number=number, item_name=name.value, total_price=total.value, quantity=quantity.value,
                         unit_price=unit.value, confidence=round(confidence, 3),
                         evidence={key: hit.evidence for key, hit in found.items() if hit and hit.evidence})  # fmt: skip


def _item_confidence(label: str, found: dict[str, Found | None], base: float, problems: list[str]) -> float:
    """The item's confidence: its name and total located (else low), quantity and unit price confirmed."""
    confidence = min(found["item_name"].confidence(base), found["total_price"].confidence(base))
    missing = [key for key in ("item_name", "total_price") if not found[key].evidence]
    if missing:
        problems.append(f"{label}: {' and '.join(missing)} not in the receipt's text; kept with low confidence")
    for key in ("quantity", "unit_price"):
        if found[key] is not None and not found[key].evidence:
            confidence *= UNCONFIRMED_PART
    return confidence
