"""A paid order of a signed-in buyer adds the shop's own receipt to the buyer's receipts."""

from decimal import Decimal

from sqlalchemy import select

from insightshop.extensions import db
from insightshop.models.receipts import Category, Receipt
from insightshop.services.actors import Actor
from tests.factories import make_paid_order, make_product, make_user


def test_paying_an_order_adds_its_receipt_with_certain_values(app):
    buyer = make_user()
    product = make_product(name="White Oxford Shirt", price=Decimal("40.00"))
    order = make_paid_order(Actor(user=buyer), product)

    receipt = db.session.scalar(select(Receipt).where(Receipt.order_id == order.id))
    assert receipt.user_id == buyer.id
    assert (receipt.status, receipt.method, receipt.confidence) == ("completed", "order_record", 1.0)
    assert receipt.merchant_name == "InsightShop"
    assert receipt.purchase_date == order.paid_at.date()
    assert (receipt.total_amount, receipt.tax_amount, receipt.currency) == (order.total, order.tax, "USD")
    assert [(item.item_name.split(" (")[0], item.quantity, item.total_price) for item in receipt.items] == [
        ("White Oxford Shirt", 1, Decimal("40.00"))
    ]
    assert "TOTAL USD" in receipt.raw_text and f"{order.total:.2f}" in receipt.raw_text


def test_a_guest_order_adds_no_receipt(app):
    product = make_product()
    make_paid_order(Actor(guest_id="guest-1"), product)
    assert db.session.scalar(select(Receipt)) is None


def test_the_migrations_start_with_title_case_categories(app):
    names = set(db.session.scalars(select(Category.name)))
    assert {"Clothing", "Dairy", "Personal Care", "Prepared Food"} <= names
    assert all(name == name.title() for name in names)
