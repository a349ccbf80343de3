"""The receipt tools the model calls, with strict input schemas (seed 000's output fields as the tools' inputs):
extract_receipt_metadata, extract_line_items and validate_extraction. Strict schemas allow no numeric or length
constraints — the shop checks ranges itself (claude_checks) — and few nullable fields (at most 16 across the
tools: these use 14), so line numbers use 0 for "not printed" instead of null, and nothing is optional."""

from __future__ import annotations

AMOUNT = "a plain decimal number with a dot and no currency sign or thousands separator, e.g. 1234.50"
LINE = "the number [n] of the text line the value is printed on; 0 when it is not on any numbered line"
METADATA_FIELDS = {
    "merchant_name": "The shop's name exactly as printed (keep its spelling); null if not printed.",
    "merchant_address": "The shop's address exactly as printed, its lines joined with ', '; null if not printed.",
    "purchase_date": "The purchase date as YYYY-MM-DD, day or month first decided from the receipt; null if none.",
    "currency": "The ISO 4217 code of the currency the receipt shows (code or symbol); null if it shows none.",
    "subtotal": f"The subtotal as printed, {AMOUNT}; null if not printed (never computed).",
    "tax_amount": f"The total tax as printed, {AMOUNT}; null if not printed (never computed).",
    "total_amount": f"The total paid as printed, {AMOUNT}; null if not printed.",
}


def _object(properties: dict, description: str | None = None) -> dict:
    schema = {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}
    return schema | ({"description": description} if description else {})


def _nullable(description: str) -> dict:
    return {"type": ["string", "null"], "description": description}


def _typed(kind: str, description: str) -> dict:
    return {"type": kind, "description": description}


EXTRACT_RECEIPT_METADATA = {
    "name": "extract_receipt_metadata",
    "description": "Record the receipt's merchant, address, purchase date, currency, subtotal, tax and total, each "
    "with the line it is printed on. Call it again to correct a value: the latest call replaces the earlier one.",
    "strict": True,
    "input_schema": _object(
        {
            **{name: _nullable(text) for name, text in METADATA_FIELDS.items()},
            "lines": _object({name: _typed("integer", LINE) for name in METADATA_FIELDS}, "Each field's line."),
            "confidence": _typed("number", "How sure you are of these values, 0.0 to 1.0."),
        }
    ),
}

LINE_ITEM = _object(
    {
        "item_name": _typed("string", "The item's name exactly as printed."),
        "quantity": _nullable(
            "The quantity or weight as printed, a plain decimal (2, 1.5, 0.456); null if not printed."
        ),
        "unit_price": _nullable(f"The price of one, {AMOUNT}; null if not printed."),
        "total_price": _typed("string", f"The line's price, {AMOUNT}."),
        "line_number": _typed("integer", "The item's position among the items, from 1."),
        "line": _typed("integer", LINE),
    }
)

EXTRACT_LINE_ITEMS = {
    "name": "extract_line_items",
    "description": "Record every line item bought, in receipt order, each with the line it is printed on. Only goods "
    "and services: no subtotal, total, tax, discount, payment, change or tender lines. Call it again to replace "
    "the whole list with a corrected one.",
    "strict": True,
    "input_schema": _object(
        {
            "items": {"type": "array", "items": LINE_ITEM},
            "confidence": _typed("number", "How sure you are of these items, 0.0 to 1.0."),
        }
    ),
}

RECEIPT_DATA = _object(
    {
        "merchant_name": _nullable("As recorded."),
        "purchase_date": _nullable("YYYY-MM-DD, as recorded."),
        "total_amount": _nullable(AMOUNT),
        "subtotal": _nullable(AMOUNT),
        "tax_amount": _nullable(AMOUNT),
        "items": {"type": "array", "items": _object({"total_price": _typed("string", AMOUNT)})},
    }
)

VALIDATE_EXTRACTION = {
    "name": "validate_extraction",
    "description": "Check the recorded extraction against the shop's rules: merchant name present, purchase date "
    "real and not in the future, amounts positive, at least one item, items summing to the total within 5%. Pass "
    "the values you recorded. Returns valid, warnings and errors.",
    "strict": True,
    "input_schema": _object({"receipt_data": RECEIPT_DATA}),
}

TOOLS = [EXTRACT_RECEIPT_METADATA, EXTRACT_LINE_ITEMS, VALIDATE_EXTRACTION]
