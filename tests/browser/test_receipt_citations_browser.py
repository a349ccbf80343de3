"""Issue 14's "Done when", in a browser: ask the assistant what was spent on receipts, get the sum with citation
links, click one and land on the receipt with the cited line highlighted.

The last step relies on the receipt pages' contract (/receipts/<id>?field=<name> marks the source line
`[data-block=…]` with `.block--cited` and the value in a <mark>): it passes once the pages branch is merged."""

from decimal import Decimal

from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.services.actors import Actor
from tests.browser.test_assistant_browser import ask
from tests.factories import make_paid_order, make_user
from tests.receipts.citation_helpers import cited_receipt


def test_a_cited_total_opens_the_receipt_with_its_source_line_highlighted(live_server, page):
    shopper = make_user("buyer@example.com")
    variant = db.session.query(ProductVariant).filter(ProductVariant.stock > 2).first()
    order = make_paid_order(Actor(user=shopper), variant.product, size=variant.size)
    scanned = cited_receipt(shopper)
    spent = f"${order.total + Decimal('45.67'):.2f}"
    page.goto(f"{live_server}/login")
    page.fill("#email", "buyer@example.com")
    page.fill("#password", "correct horse battery")
    page.get_by_role("button", name="Log in", exact=True).click()
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()

    answer = ask(page, "how much did I spend in total on my receipts?")

    expect(answer).to_contain_text(f"You spent {spent} on 2 receipts.")
    expect(answer).to_contain_text("(unverified, 62% confidence)")
    links = answer.locator("a.chat-cite")
    expect(links).to_have_count(2)
    link = answer.get_by_role("link", name="[receipt-12.jpg, line 9]")
    expect(link).to_have_attribute("href", f"/receipts/{scanned.id}?field=total_amount")
    assert page.console_errors == []

    link.click()

    expect(page).to_have_url(f"{live_server}/receipts/{scanned.id}?field=total_amount")
    cited = page.locator(".block--cited")
    expect(cited).to_be_visible()
    expect(cited).to_have_attribute("data-block", "p1-l9")
    expect(cited.locator("mark")).to_have_text("45.67")
    expect(page.locator(".field--cited")).to_be_visible()
