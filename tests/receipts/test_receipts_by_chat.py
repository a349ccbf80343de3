"""Receipt questions to the assistant (offline engine): the answer is the owner's own spending, from the database."""

from datetime import date
from decimal import Decimal

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.models.receipts import Receipt, ReceiptItem
from insightshop.services.actors import Actor
from tests.factories import make_paid_order, make_product, make_user


def _receipt(user, merchant: str, day: date, total: str, currency: str = "USD") -> Receipt:
    receipt = Receipt(user_id=user.id, original_filename=f"{merchant}.txt", content_type="text/plain",
                      sha256=f"{merchant}{day}".ljust(64, "0")[:64], status="completed", merchant_name=merchant,
                      purchase_date=day, total_amount=Decimal(total), currency=currency, confidence=0.9)  # fmt: skip
    receipt.items = [ReceiptItem(line_number=1, item_name="Groceries", total_price=Decimal(total))]
    db.session.add(receipt)
    db.session.commit()
    return receipt


def test_spending_at_a_merchant_in_a_month_is_summed_from_that_merchants_receipts_only(app):
    shopper = make_user()
    other = make_user("other@example.com")
    _receipt(shopper, "Whole Foods Market", date(2025, 10, 3), "45.67")
    _receipt(shopper, "Whole Foods Market", date(2025, 10, 28), "12.10")
    _receipt(shopper, "Whole Foods Market", date(2025, 11, 2), "99.00")  # another month
    _receipt(shopper, "Corner Cafe", date(2025, 10, 5), "7.50")  # another merchant
    _receipt(other, "Whole Foods Market", date(2025, 10, 4), "300.00")  # another shopper

    turn = chat.chat_turn(Actor(user=shopper), "what did I spend at whole foods in October 2025?")

    [call] = turn["tool_calls"]
    assert call["name"] == "receipts_list" and call["outcome"] == "executed"
    assert call["result"]["spent"] == [{"currency": "USD", "total": "57.77", "receipts": 2}]
    assert "$57.77" in turn["reply"] and "300" not in turn["reply"]


def test_receipts_over_fifty_dollars_lists_only_those(app):
    shopper = make_user()
    _receipt(shopper, "Shoe Hut", date(2026, 9, 1), "89.00")
    _receipt(shopper, "Corner Cafe", date(2026, 9, 2), "7.50")

    turn = chat.chat_turn(Actor(user=shopper), "show my receipts over $50")

    names = [r["merchant_name"] for r in turn["tool_calls"][0]["result"]["receipts"]]
    assert names == ["Shoe Hut"]
    assert "Shoe Hut" in turn["reply"] and "Corner Cafe" not in turn["reply"]


def test_a_paid_order_counts_in_what_the_shopper_spent(app):
    shopper = make_user()
    order = make_paid_order(Actor(user=shopper), make_product(name="Linen Shirt", price=Decimal("30.00")))

    turn = chat.chat_turn(Actor(user=shopper), "how much did I spend in total on my receipts?")

    assert turn["tool_calls"][0]["result"]["spent"] == [{"currency": "USD", "total": f"{order.total:.2f}",
                                                          "receipts": 1}]  # fmt: skip
    assert "InsightShop" in turn["reply"]


def test_a_guest_asking_for_receipts_is_asked_to_log_in_and_sees_nothing(app):
    shopper = make_user()
    _receipt(shopper, "Shoe Hut", date(2026, 9, 1), "89.00")

    turn = chat.chat_turn(Actor(guest_id="guest-9"), "show my receipts")

    assert turn["tool_calls"][0]["outcome"] in ("error", "rejected")
    assert "Shoe Hut" not in turn["reply"] and "log in" in turn["reply"].lower()
