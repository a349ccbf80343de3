"""Buying in a real browser with the offline test provider: decline, then pay, receipt PDF, order lookup."""

import re

from playwright.sync_api import expect


def test_checkout_decline_then_pay_download_receipt_and_look_up(live_server, page, tmp_path):
    page.goto(f"{live_server}/catalog?q=white+shirt&category=men")
    page.locator("#results .card-link").first.click()
    page.locator(".size-option:not(.unavailable)").filter(has_text="L").first.click()
    expect(page).to_have_url(re.compile(r"size=L"))
    page.locator(".add-button").click()
    expect(page.locator("#cart-count")).to_have_text("1")

    page.locator(".cart-link").click()
    page.get_by_role("link", name="Checkout").click()
    page.fill("#email", "ada@example.com")
    page.fill("#shipping_name", "Ada Lovelace")
    page.fill("#shipping_address", "12 Analytical Row")
    page.fill("#shipping_city", "London")
    page.fill("#shipping_state", "Greater London")
    page.fill("#shipping_zip", "N1 9GU")
    page.fill("#shipping_country", "GB")
    page.locator("input[name=shipping_method][value=express]").check()
    expect(page.locator("#checkout-summary")).to_contain_text("$14.95")  # the summary follows the chosen method
    page.get_by_role("button", name="Continue to payment").click()
    expect(page.locator(".test-banner")).to_contain_text("Test payments")
    order_id = re.search(r"/orders/(\d+)/pay", page.url).group(1)

    page.fill("#card_number", "4000 0000 0000 0002")
    page.get_by_role("button", name=re.compile(r"^Pay \$")).click()
    expect(page.locator(".alert--error").first).to_have_text("Your card was declined.")
    expect(page.locator("#cart-count")).to_have_text("1")  # the cart is intact

    page.fill("#card_number", "4242 4242 4242 4242")
    page.get_by_role("button", name=re.compile(r"^Pay \$")).click()
    expect(page.locator(".page-title .status")).to_have_text("Paid")
    expect(page.locator("#cart-count")).to_have_text("0")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download receipt (PDF)").click()
    pdf = tmp_path / "receipt.pdf"
    download_info.value.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    page.get_by_role("link", name="View receipt").click()
    expect(page.locator(".receipt-text")).to_contain_text(f"Receipt for order #{order_id}")
    page.screenshot(path=str(tmp_path / "receipt.png"), full_page=True)

    page.goto(f"{live_server}/orders/lookup")
    page.fill("#order_id", order_id)
    page.fill("#email", "ada@example.com")
    page.get_by_role("button", name="Look up").click()
    # In the browser that placed it, a guest's order number and email open the whole order page.
    page.wait_for_url(re.compile(rf"/orders/{order_id}$"))
    expect(page.locator("h1")).to_contain_text(f"Order #{order_id}")
    expect(page.get_by_role("link", name="View receipt")).to_be_visible()
    # The declined payment re-renders its form with 422, which the browser reports; nothing else may fail.
    assert [e for e in page.console_errors if "status of 422" not in e] == []
