"""Seed 000's validation rules for an extraction: errors make it invalid, warnings only inform."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

ITEM_SUM_TOLERANCE = Decimal("0.05")  # sum(items) may differ from the total by ±5%


@dataclass
class ValidationResult:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict:
        return {"valid": self.valid, "warnings": list(self.warnings), "errors": list(self.errors)}


def validate_extraction(data: dict, *, today: date | None = None) -> ValidationResult:
    """Check merchant, date, amounts and items of an extraction (plain values: str/Decimal/number/None)."""
    result = ValidationResult()
    today = today or date.today()
    if not str(data.get("merchant_name") or "").strip():
        result.errors.append("Merchant name is empty")
    _check_date(data.get("purchase_date"), today, result)
    total = _check_amount("Total", data.get("total_amount"), result, required=True)
    _check_amount("Subtotal", data.get("subtotal"), result, required=False)
    # A receipt may print a tax of 0.00 (exempt goods); only a negative tax is wrong.
    _check_amount("Tax", data.get("tax_amount"), result, required=False, allow_zero=True)
    items = data.get("items") or []
    if not items:
        result.errors.append("No line items were extracted")
    prices = [_check_amount(f"Item {n}", item.get("total_price"), result, True) for n, item in enumerate(items, 1)]
    if items and total is not None and all(price is not None for price in prices):
        _check_item_sum(sum(prices, Decimal(0)), total, result)
    return result


def _check_date(value, today: date, result: ValidationResult) -> None:
    if value in (None, ""):
        result.errors.append("Purchase date is missing")
        return
    try:
        parsed = value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        result.errors.append(f"Purchase date {value!s} is not a date (YYYY-MM-DD)")
        return
    if parsed > today:
        result.errors.append(f"Purchase date {parsed.isoformat()} is in the future")


def _check_amount(
    label: str, value, result: ValidationResult, required: bool, *, allow_zero: bool = False
) -> Decimal | None:
    if value in (None, ""):
        if required:
            result.errors.append(f"{label} amount is missing")
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        result.errors.append(f"{label} amount {value!s} is not a number")
        return None
    if not amount.is_finite() or amount < 0 or (amount == 0 and not allow_zero):
        result.errors.append(f"{label} amount must be positive, not {value!s}")
        return None
    return amount


def _check_item_sum(items_sum: Decimal, total: Decimal, result: ValidationResult) -> None:
    if abs(items_sum - total) > total * ITEM_SUM_TOLERANCE:
        result.warnings.append(f"Total amount mismatch: sum(items)={items_sum:.2f}, total={total:.2f}")
