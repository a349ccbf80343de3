"""Shared set-up for the category tests: the migration's starting categories (PostgreSQL runs empty the tables
between tests, SQLite copies keep the migration's rows), a receipt item owned by a user, and the labelled items."""

from __future__ import annotations

import importlib.util
import json
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import select

from insightshop.extensions import db
from insightshop.models.receipts import Category, Receipt, ReceiptItem

ROOT = Path(__file__).resolve().parents[2]
LABELS = Path(__file__).parent / "fixtures" / "category_labels.json"


@cache
def migration_categories() -> list[tuple[str, str]]:
    """DEFAULT_CATEGORIES as migration 0009 seeds them (one source for the names)."""
    path = ROOT / "migrations" / "versions" / "0009_receipts.py"
    spec = importlib.util.spec_from_file_location("migration_0009_receipts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.DEFAULT_CATEGORIES)


@pytest.fixture
def categories(app) -> dict[str, Category]:
    """The 22 starting categories by name, as migration 0009 seeds them (tests/conftest.py keeps them on
    PostgreSQL, whose runs empty the tables between tests)."""
    return {c.name: c for c in db.session.scalars(select(Category))}


def make_receipt_item(user, item_name: str = "TEH O AIS", *, category=None, method: str | None = None) -> ReceiptItem:
    receipt = Receipt(user_id=user.id, original_filename="r.txt", content_type="text/plain", sha256="0" * 64,
                      status="completed")  # fmt: skip
    item = ReceiptItem(line_number=1, item_name=item_name, total_price=Decimal("2.50"),
                       category_id=category.id if category else None, category_method=method)  # fmt: skip
    receipt.items.append(item)
    db.session.add(receipt)
    db.session.commit()
    return item


def labelled_items(split: str | None = None) -> list[dict]:
    items = json.loads(LABELS.read_text())["items"]
    return [item for item in items if split is None or item["split"] == split]
