"""Reviewing a receipt in Chromium at desktop and phone sizes: pointing at or focusing a value lights its line in
the text view, verifying and correcting work through the page, and nothing runs off a phone's screen."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.citations import ExtractedField
from insightshop.models.receipts import Receipt
from tests.factories import make_user
from tests.receipts.conftest import SHOP_RECEIPT

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=SIZES, ids=list(SIZES))
def shopper(request, browser, live_server, demo_catalog, tmp_path):
    """A signed-in shopper with the corner market's receipt uploaded, at one of the two sizes."""
    demo_catalog.config["RECEIPT_QUEUE"] = "inline"
    make_user("shopper@example.com")
    context = browser.new_context(viewport=SIZES[request.param])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.console_errors = []
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.goto(f"{live_server}/login")
    page.fill("#email", "shopper@example.com")
    page.fill("#password", "correct horse battery")
    page.get_by_role("button", name="Log in", exact=True).click()
    page.goto(f"{live_server}/receipts")
    upload = tmp_path / "corner.txt"
    upload.write_text(SHOP_RECEIPT)
    page.set_input_files("input[type=file]", str(upload))
    page.get_by_role("button", name="Upload and read").click()
    expect(page.locator("#receipt_body h1")).to_contain_text("CORNER MARKET", ignore_case=True)
    page.size = request.param
    yield page
    context.close()


def _source_line(name: str) -> str:
    db.session.expire_all()
    field = db.session.scalar(db.select(ExtractedField).where(ExtractedField.field_name == name))
    return f'[data-block="{field.source_block_ids[0]}"]'


def test_pointing_at_or_focusing_a_value_lights_its_line(shopper):
    total, milk = _source_line("total_amount"), _source_line("items.1.total_price")

    if shopper.size == "desktop":
        shopper.hover('[data-field="total_amount"] > summary')
        expect(shopper.locator(total)).to_have_class("receipt-line block--lit")
        expect(shopper.locator(f"{total} mark")).to_have_text("14.83")
    shopper.focus('a[data-field="items.1.total_price"]')

    expect(shopper.locator(milk)).to_have_class("receipt-line block--lit")
    expect(shopper.locator(f"{milk} mark")).to_have_text("3.98")
    expect(shopper.locator(total)).to_have_class("receipt-line")
    assert shopper.console_errors == []


def test_verifying_and_correcting_through_the_page(shopper):
    shopper.locator('[data-field="subtotal"] > summary').click()
    shopper.locator('[data-field="subtotal"]').get_by_role("button", name="Verify").click()
    expect(shopper.locator('[data-field="subtotal"] .receipt-field__status')).to_contain_text("Verified by you on")

    total = shopper.locator('[data-field="total_amount"]')
    total.locator("summary").click()
    total.get_by_label("Correct the total").fill("fifteen")
    total.get_by_role("button", name="Save the correction").click()
    expect(shopper.locator('[data-field="total_amount"] .field-error')).to_have_text("Enter an amount such as 12.50")
    shopper.locator('[data-field="total_amount"]').get_by_label("Correct the total").fill("15.10")
    shopper.locator('[data-field="total_amount"]').get_by_role("button", name="Save the correction").click()

    expect(shopper.locator('[data-field="total_amount"] .receipt-field__value')).to_have_text("$15.10")
    expect(shopper.locator('[data-field="total_amount"] .field-history')).to_contain_text("Entered by you")
    db.session.expire_all()
    assert db.session.scalar(db.select(Receipt.total_amount)) == Decimal("15.10")
    assert shopper.evaluate("document.documentElement.scrollWidth") == SIZES[shopper.size]["width"]
    assert shopper.console_errors == []


def test_a_cited_value_is_shown_and_nothing_overflows(shopper):
    shopper.goto(shopper.url + "?field=items.2.total_price")

    expect(shopper.locator("#cited")).to_have_class("cite-link field--cited")
    expect(shopper.locator("#cited")).to_be_in_viewport()
    expect(shopper.locator(".block--cited mark")).to_have_text("4.50")
    assert shopper.evaluate("document.documentElement.scrollWidth") == SIZES[shopper.size]["width"]
