"""A shopper's whole visit in a real browser: account, guest cart merged at login, wishlist, review, compare."""

import re

from playwright.sync_api import expect


def test_register_verify_shop_as_guest_log_in_save_review_and_compare(live_server, page, tmp_path):
    # Register, then confirm the address through the development outbox.
    page.goto(f"{live_server}/register")
    page.fill("#first_name", "Nia")
    page.fill("#last_name", "Obi")
    page.fill("#email", "nia@example.com")
    page.fill("#password", "correct horse battery")
    page.fill("#confirm", "correct horse battery")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".flash, .alert").first).to_contain_text("you're signed in")
    expect(page.locator("h1")).to_have_text("Hello, Nia Obi")
    page.goto(f"{live_server}/dev/outbox")
    page.get_by_role("link", name="Confirm your InsightShop email address").click()
    page.locator(".email-body a").click()
    page.goto(f"{live_server}/account")
    expect(page.locator("h1")).to_have_text("Hello, Nia Obi")
    expect(page.locator(".tag")).to_have_text("Email confirmed")
    page.get_by_role("button", name="Log out", exact=True).click()

    # As a guest: find large white shirts and put two in the cart; the badge follows.
    page.goto(f"{live_server}/catalog?q=white+shirt&category=men")
    page.locator("#results .card-link").first.click()
    title = page.locator("h1.product-title").text_content()
    page.locator(".size-option:not(.unavailable)").filter(has_text="L").first.click()
    expect(page).to_have_url(re.compile(r"size=L"))
    page.locator("select[name=quantity]").select_option("2")
    page.locator(".add-button").click()
    expect(page.locator("#cart-count")).to_have_text("2")

    # Log in: the guest cart is now the account's cart.
    page.get_by_role("link", name="Log in", exact=True).click()
    page.fill("#email", "nia@example.com")
    page.fill("#password", "correct horse battery")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.locator("#cart-count")).to_have_text("2")
    page.locator(".cart-link").click()
    expect(page.locator(".cart-line-name")).to_have_text(title)
    page.get_by_role("button", name="One more").click()
    expect(page.locator(".stepper output")).to_have_text("3")
    expect(page.locator("#cart-count")).to_have_text("3")
    page.screenshot(path=str(tmp_path / "cart.png"), full_page=True)

    # Save it, review it.
    page.locator(".cart-line-name").click()
    page.get_by_role("button", name="♡ Save").click()
    expect(page.get_by_role("button", name="♥ Saved")).to_be_visible()
    page.select_option("#rating", "5")
    page.fill("#comment", "Crisp collar, <b>great</b> fit.")
    page.get_by_role("button", name="Post review").click()
    expect(page.locator("#reviews .alert--success")).to_have_text("Thanks for your review!")
    expect(page.locator("#reviews .review").first).to_contain_text("Crisp collar, <b>great</b> fit.")
    page.goto(f"{live_server}/wishlist")
    expect(page.locator(".wishlist-item .cart-line-name")).to_have_text(title)

    # Compare two shirts side by side.
    page.goto(f"{live_server}/catalog?clothing_type=shirt&category=men")
    page.locator("#results .card .chip-button").nth(0).click()
    expect(page.locator("#results .card .chip-button").nth(0)).to_have_text("✓ Comparing")
    page.locator("#results .card .chip-button").nth(1).click()
    expect(page.locator("#compare-tray")).to_contain_text("2 products to compare")
    page.locator("#compare-tray a").click()
    expect(page.locator(".compare-table thead th")).to_have_count(3)
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)

    assert page.console_errors == []
