"""An admin at work in a real browser: filtered lists without reloads, inline stock edit, an order shipped."""

import re

from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from tests.admin_helpers import make_admin
from tests.factories import make_user
from tests.services.test_orders import details


def test_admin_filters_products_edits_stock_and_ships_an_order(live_server, page, tmp_path):
    make_admin()
    buyer = Actor(user=make_user("buyer@example.com"))
    variant = db.session.query(ProductVariant).filter(ProductVariant.stock > 2).first()
    cart.add_item(buyer, variant.product_id, 1, variant.color, variant.size)
    order = orders.place_order(buyer, details(email="buyer@example.com"))
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")

    page.goto(f"{live_server}/login")
    page.fill("#email", "boss@example.com")
    page.fill("#password", "an admin password")
    page.get_by_role("button", name="Log in", exact=True).click()
    page.get_by_role("link", name="Admin", exact=True).click()
    expect(page.locator(".kpi strong").first).to_have_text(f"${order.total:.2f}")
    page.evaluate("window.__sameDocument = true")

    page.get_by_role("link", name="Products", exact=True).click()
    # A full page load: htmx must have run and wired the search field before typing, or the keystrokes go unseen.
    page.wait_for_load_state("load")
    page.wait_for_function("window.htmx !== undefined && document.querySelector('#admin-search') !== null")
    page.evaluate("window.__sameDocument = true")
    page.fill("#admin-search", "linen")
    expect(page).to_have_url(re.compile(r"search=linen"))
    names = page.locator("#product-table tbody td:nth-child(2) a").all_text_contents()
    assert names and all("Linen" in name for name in names)
    assert page.evaluate("window.__sameDocument") is True

    page.locator("#product-table tbody a").first.click()
    first_row = page.locator("tbody tr[id^=variant-]").first
    first_row.locator("input[name=stock]").fill("42")
    first_row.get_by_role("button", name="Save").click()
    expect(page.locator("tbody tr[id^=variant-]").first.locator(".tag--ok")).to_have_text("Saved")
    expect(page.locator("tbody tr[id^=variant-]").first.locator("input[name=stock]")).to_have_value("42")

    page.goto(f"{live_server}/admin/orders/{order.id}")
    page.select_option("#status", "shipped")
    page.fill("#carrier", "UPS")
    page.fill("#tracking_number", "1Z999AA10123456784")
    page.get_by_role("button", name="Update").click()
    expect(page.locator(".alert--success")).to_have_text(f"Order #{order.id} is now shipped.")
    page.screenshot(path=str(tmp_path / "admin-order.png"), full_page=True)
    assert page.console_errors == []
