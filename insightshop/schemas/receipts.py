"""Receipt request shapes (list filters, corrections) and response shapes (a receipt, seed 000's agent result)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from flask import url_for

from ..models.receipts import LOW_CONFIDENCE, RECEIPT_STATUSES, Receipt, ReceiptItem
from ..services.receipts.document import ReceiptExtraction
from ..services.receipts.library import ReceiptFilters
from .orders import money

AMOUNT = {"type": "string", "pattern": r"^\d{1,8}(\.\d{1,2})?$", "maxLength": 11}
RECEIPT_FILTER_PROPERTIES = {
    "merchant": {"type": "string", "minLength": 1, "maxLength": 100},
    "date_from": {"type": "string", "format": "date"},
    "date_to": {"type": "string", "format": "date"},
    "min_amount": AMOUNT,
    "max_amount": AMOUNT,
    "category": {"type": "string", "minLength": 1, "maxLength": 100},
    "status": {"type": "string", "enum": list(RECEIPT_STATUSES)},
}
RECEIPT_LIST_PARAMS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        **RECEIPT_FILTER_PROPERTIES,
        "page": {"type": "string", "pattern": "^[1-9][0-9]{0,5}$"},
        "per_page": {"type": "string", "pattern": "^[1-9][0-9]?$|^100$"},
    },
}


def filters_from(values: dict) -> ReceiptFilters:
    """ReceiptFilters from validated strings (query parameters or tool arguments); bounds are checked here."""
    filters = ReceiptFilters(
        merchant=values.get("merchant"), category=values.get("category"), status=values.get("status"),
        date_from=_date(values.get("date_from")), date_to=_date(values.get("date_to")),
        min_amount=_amount(values.get("min_amount")), max_amount=_amount(values.get("max_amount")),
    )  # fmt: skip
    return filters


def _date(value) -> date | None:
    return date.fromisoformat(value) if value else None


def _amount(value) -> Decimal | None:
    return Decimal(str(value)) if value not in (None, "") else None


def _money(value: Decimal | None) -> str | None:
    return money(value) if value is not None else None


def low_confidence_fields(receipt: Receipt) -> list[str]:
    """The fields whose value is below the review threshold (highlighted on the page)."""
    return sorted(name for name, score in (receipt.field_confidence or {}).items()
                  if score < LOW_CONFIDENCE and getattr(receipt, name, None) is not None)  # fmt: skip


def item_to_dict(item: ReceiptItem) -> dict:
    return {
        "id": item.id,
        "line_number": item.line_number,
        "item_name": item.item_name,
        "quantity": f"{item.quantity.normalize():f}" if item.quantity is not None else None,
        "unit_price": _money(item.unit_price),
        "total_price": money(item.total_price),
        "category": item.category.name if item.category else None,
        "category_id": item.category_id,
        "category_method": item.category_method,
        "confidence": item.confidence,
    }


def receipt_to_dict(receipt: Receipt, *, full: bool = True) -> dict:
    data = {
        "id": receipt.id,
        "status": receipt.status,
        "merchant_name": receipt.merchant_name,
        "purchase_date": receipt.purchase_date.isoformat() if receipt.purchase_date else None,
        "currency": receipt.currency,
        "total_amount": _money(receipt.total_amount),
        "confidence": receipt.confidence,
        "original_filename": receipt.original_filename,
        "order_id": receipt.order_id,
        "url": url_for("receipts.show_receipt", receipt_id=receipt.id),
        "created_at": receipt.created_at.isoformat(),
    }
    if full:
        data |= {
            "merchant_address": receipt.merchant_address,
            "subtotal": _money(receipt.subtotal),
            "tax_amount": _money(receipt.tax_amount),
            "method": receipt.method,
            "content_type": receipt.content_type,
            "size_bytes": receipt.size_bytes,
            "field_confidence": receipt.field_confidence or {},
            "low_confidence_fields": low_confidence_fields(receipt),
            "processing_time_ms": receipt.processing_time_ms,
            "agent_version": receipt.agent_version,
            "errors": receipt.errors or [],
            "warnings": receipt.warnings or [],
            "processed_at": receipt.processed_at.isoformat() if receipt.processed_at else None,
            "file_url": url_for("api.receipt_file", receipt_id=receipt.id) if receipt.stored_name else None,
            "items": [item_to_dict(item) for item in receipt.items],
        }
    return data


def agent_response(receipt: Receipt) -> dict:
    """Seed 000's final response for a read receipt (money as decimal strings, as everywhere in the API)."""
    failed = receipt.status == "failed"
    metadata = None if failed else {
        "merchant_name": receipt.merchant_name,
        "purchase_date": receipt.purchase_date.isoformat() if receipt.purchase_date else None,
        "total_amount": _money(receipt.total_amount),
        "currency": receipt.currency,
        "confidence": receipt.confidence,
    }  # fmt: skip
    items = [] if failed else [
        {"item_name": item.item_name, "quantity": item_to_dict(item)["quantity"], "unit_price": _money(item.unit_price),
         "total_price": money(item.total_price), "line_number": item.line_number, "confidence": item.confidence}
        for item in receipt.items
    ]  # fmt: skip
    return {
        "status": "failed" if failed else "success",
        "metadata": metadata,
        "items": items,
        "validation": {"valid": not receipt.errors, "warnings": receipt.warnings or [], "errors": receipt.errors or []},
        "processing_time_ms": receipt.processing_time_ms,
        "agent_version": receipt.agent_version,
    }


def extraction_metadata(result: ReceiptExtraction) -> dict:
    """Seed 000's extract_receipt_metadata output (money as decimal strings), with per-field confidence."""
    fields = ("merchant_name", "merchant_address", "purchase_date", "total_amount", "currency", "tax_amount",
              "subtotal")  # fmt: skip
    data = {name: _plain(name, getattr(result, name).value) for name in fields}
    data["confidence"] = round(result.confidence, 3)
    data["field_confidence"] = {name: round(getattr(result, name).confidence, 3) for name in fields}
    return data


def extraction_items(result: ReceiptExtraction) -> dict:
    """Seed 000's extract_line_items output."""
    items = [
        {"item_name": item.item_name, "quantity": _plain("quantity", item.quantity),
         "unit_price": _money(item.unit_price), "total_price": money(item.total_price), "line_number": item.line_number,
         "confidence": round(item.confidence, 3)}
        for item in result.items
    ]  # fmt: skip
    confidence = min((item["confidence"] for item in items), default=0.0)
    return {"items": items, "confidence": confidence}


def _plain(name: str, value):
    if isinstance(value, Decimal):
        return f"{value.normalize():f}" if name == "quantity" else money(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


# Response shapes (OpenAPI components) -------------------------------------------------------------------------

MONEY_OR_NULL = {"type": ["string", "null"], "pattern": r"^-?\d+\.\d{2}$"}
NULLABLE_TEXT = {"type": ["string", "null"]}
RECEIPT_ITEM_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "line_number",
        "item_name",
        "quantity",
        "unit_price",
        "total_price",
        "category",
        "category_id",
        "category_method",
        "confidence",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "line_number": {"type": "integer"},
        "item_name": {"type": "string"},
        "quantity": NULLABLE_TEXT,
        "unit_price": MONEY_OR_NULL,
        "total_price": {"type": "string", "pattern": r"^-?\d+\.\d{2}$"},
        "category": NULLABLE_TEXT,
        "category_id": {"type": ["integer", "null"]},
        "category_method": NULLABLE_TEXT,
        "confidence": {"type": ["number", "null"]},
    },
}
RECEIPT_SUMMARY_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "status",
        "merchant_name",
        "purchase_date",
        "currency",
        "total_amount",
        "confidence",
        "original_filename",
        "order_id",
        "url",
        "created_at",
    ],  # fmt: skip
    "properties": {
        "id": {"type": "integer"},
        "status": {"type": "string", "enum": list(RECEIPT_STATUSES)},
        "merchant_name": NULLABLE_TEXT,
        "purchase_date": {"type": ["string", "null"], "format": "date"},
        "currency": NULLABLE_TEXT,
        "total_amount": MONEY_OR_NULL,
        "confidence": {"type": ["number", "null"]},
        "original_filename": {"type": "string"},
        "order_id": {"type": ["integer", "null"]},
        "url": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
    },
}
RECEIPT_SCHEMA = {
    "allOf": [
        {"$ref": "#/components/schemas/ReceiptSummary"},
        {
            "type": "object",
            "required": [
                "merchant_address",
                "subtotal",
                "tax_amount",
                "method",
                "content_type",
                "size_bytes",
                "field_confidence",
                "low_confidence_fields",
                "processing_time_ms",
                "agent_version",
                "errors",
                "warnings",
                "processed_at",
                "file_url",
                "items",
            ],  # fmt: skip
            "properties": {
                "merchant_address": NULLABLE_TEXT,
                "subtotal": MONEY_OR_NULL,
                "tax_amount": MONEY_OR_NULL,
                "method": NULLABLE_TEXT,
                "content_type": {"type": "string"},
                "size_bytes": {"type": "integer"},
                "field_confidence": {"type": "object", "additionalProperties": {"type": "number"}},
                "low_confidence_fields": {"type": "array", "items": {"type": "string"}},
                "processing_time_ms": {"type": ["integer", "null"]},
                "agent_version": NULLABLE_TEXT,
                "errors": {"type": "array", "items": {"type": "string"}},
                "warnings": {"type": "array", "items": {"type": "string"}},
                "processed_at": {"type": ["string", "null"], "format": "date-time"},
                "file_url": NULLABLE_TEXT,
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/ReceiptItem"}},
            },
        },
    ]
}
AGENT_RESULT_SCHEMA = {
    "type": ["object", "null"],
    "description": "Seed 000's agent response; null while the receipt is still being read",
    "required": ["status", "metadata", "items", "validation", "processing_time_ms", "agent_version"],
    "properties": {
        "status": {"type": "string", "enum": ["success", "failed"]},
        "metadata": {"type": ["object", "null"]},
        "items": {"type": "array", "items": {"type": "object"}},
        "validation": {
            "type": "object",
            "required": ["valid", "warnings", "errors"],
            "properties": {"valid": {"type": "boolean"}, "warnings": {"type": "array"}, "errors": {"type": "array"}},
        },
        "processing_time_ms": {"type": ["integer", "null"]},
        "agent_version": NULLABLE_TEXT,
    },
}
RECEIPT_COMPONENTS = {
    "ReceiptItem": RECEIPT_ITEM_SCHEMA,
    "ReceiptSummary": RECEIPT_SUMMARY_SCHEMA,
    "Receipt": RECEIPT_SCHEMA,
    "ReceiptAgentResult": AGENT_RESULT_SCHEMA,
    "ReceiptResponse": {
        "type": "object",
        "required": ["receipt", "result"],
        "properties": {
            "receipt": {"$ref": "#/components/schemas/Receipt"},
            "result": {"$ref": "#/components/schemas/ReceiptAgentResult"},
        },  # fmt: skip
    },
    "ReceiptPage": {
        "type": "object",
        "required": ["receipts", "pagination"],
        "properties": {
            "receipts": {"type": "array", "items": {"$ref": "#/components/schemas/ReceiptSummary"}},
            "pagination": {"$ref": "#/components/schemas/Pagination"},
        },  # fmt: skip
    },
    "ReceiptDeleted": {
        "type": "object",
        "required": ["deleted", "id"],
        "properties": {"deleted": {"const": True}, "id": {"type": "integer"}},
    },
    "ReceiptUpload": {
        "type": "object",
        "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary", "description": "JPEG, PNG, WebP, PDF or text"}},
    },
}
