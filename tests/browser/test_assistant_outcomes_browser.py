"""Issue 28's failure classes in the assistant's panel, on a phone and on a desktop: an admin reads and changes stock
(the card shows the new figure after Approve), a signed-in shopper cancels their last order (restocked), a shopper
asks for spending on coffee (item lines, not whole receipts), how sizes run, and "show me more" (the next results).
Assertions are on what the page shows and on the database."""

from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import Product, ProductVariant
from insightshop.models.orders import Order
from insightshop.services.actors import Actor
from tests.admin_helpers import make_admin
from tests.browser.test_brief_browser import VIEWPORTS, ask
from tests.factories import make_paid_order, make_user
from tests.receipt_factories import receipt

PASSWORD = "correct horse battery"


def open_panel(browser, live_server, viewport, email=None, password=PASSWORD):
    """A page of its own at this viewport, signed in as email (if given), with the assistant's panel open."""
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    if email:
        page.goto(f"{live_server}/login")
        page.fill("#email", email)
        page.fill("#password", password)
        page.get_by_role("button", name="Log in", exact=True).click()
        expect(page.locator("body")).not_to_contain_text("Wrong email or password")
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()
    return context, page


def inside(answer, viewport) -> bool:
    box = answer.bounding_box()
    return box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]


def approve(page, proposal):
    """Click Approve and wait for the server's answer (the card then says Approved, a new message follows)."""
    count = page.locator("#chat-log .chat-msg--assistant").count()
    proposal.get_by_role("button", name="Approve").click()
    expect(page.locator(".chat-confirm-status").last).to_contain_text("Approved")
    expect(page.locator("#chat-log .chat-msg--assistant")).to_have_count(count + 1)
    return page.locator("#chat-log .chat-msg--assistant").last


def fresh() -> None:
    """End the test's read transaction: the live server's commits are then visible (SQLite reads from a snapshot)."""
    db.session.rollback()


def stock_of(product_id: int, color: str, size: str) -> int:
    fresh()
    return db.session.query(ProductVariant).filter_by(product_id=product_id, color=color, size=size).one().stock


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_admin_reads_stock_then_adds_to_it_and_sees_the_new_figure(live_server, browser, viewport):
    make_admin()
    hoodie = db.session.query(Product).filter_by(name="Zip-Through Hoodie", category="men").one()
    before = stock_of(hoodie.id, "navy", "M")
    context, page = open_panel(browser, live_server, viewport, "boss@example.com", "an admin password")

    read = ask(page, "how many navy hoodies in M are left")
    expect(read).to_contain_text(f"Zip-Through Hoodie (men's, #{hoodie.id}): {before}")
    proposal = ask(page, f"add 5 to the stock of product {hoodie.id} in navy M")
    expect(proposal.locator(".chat-confirm")).to_be_visible()
    assert stock_of(hoodie.id, "navy", "M") == before  # only proposed
    result = approve(page, proposal)
    expect(result).to_contain_text(str(before + 5))

    assert stock_of(hoodie.id, "navy", "M") == before + 5
    assert inside(result, viewport) and page.errors == []
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_shopper_cancels_their_last_order_in_the_panel(live_server, browser, viewport):
    buyer = Actor(user=make_user("buyer@example.com"))
    product = db.session.get(Product, 1)
    order = make_paid_order(buyer, product)
    bought = db.session.get(Order, order.id).items[0]
    before = stock_of(product.id, bought.color, bought.size)
    context, page = open_panel(browser, live_server, viewport, "buyer@example.com")

    proposal = ask(page, "cancel my last order")
    expect(proposal.locator(".chat-confirm")).to_contain_text(f"#{order.id}")
    result = approve(page, proposal)
    expect(result).to_contain_text("cancel")

    fresh()
    assert db.session.get(Order, order.id).status == "cancelled"
    assert stock_of(product.id, bought.color, bought.size) == before + 1
    assert inside(result, viewport) and page.errors == []
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_spending_on_coffee_sums_item_lines_and_sizes_and_more_are_answered(live_server, browser, viewport):
    user = make_user("spender@example.com")
    this_year = date(date.today().year, 1, 2)
    receipt(user, "Starbucks", this_year, [("Caffe Latte", "4.50", "Beverages"), ("Muffin", "3.25", "Bakery")])
    receipt(user, "Whole Foods", this_year, [("Ground Coffee", "11.99", "Beverages"), ("Steak", "24.00", "Meat")])
    context, page = open_panel(browser, live_server, viewport, "spender@example.com")

    spent = ask(page, "how much did I spend on coffee this year")
    expect(spent).to_contain_text(f"${Decimal('4.50') + Decimal('11.99')}")
    expect(spent).not_to_contain_text("$43.74")  # never the receipts' whole total

    sizes = ask(page, "how do your sizes run?")
    expect(sizes).to_contain_text("size guide")

    first = ask(page, "show me hoodies")
    expect(first.locator(".chat-product").first).to_be_visible()
    first_ids = {a.get_attribute("href") for a in first.locator(".chat-product a[href*='/products/']").all()}
    more = ask(page, "show me more")  # (the locators above now point at this newer answer)
    expect(more.locator(".chat-product").first).to_be_visible()
    expect(more).to_contain_text("More hoodies")
    ids = {a.get_attribute("href") for a in more.locator(".chat-product a[href*='/products/']").all()}
    assert first_ids and ids and not ids & first_ids
    assert inside(more, viewport) and page.errors == []
    context.close()
