"""Long names on a 390 px phone and a 1280 px desktop: a product's long name, a shopper's long name and e-mail, and a review with a word
too long for any line wrap inside their boxes on every page that shows them, in the shop and in the admin."""

import os

import pytest
from playwright.sync_api import expect

from tests.browser.test_phone_browser import PHONE

DESKTOP = {"width": 1280, "height": 800}

LONG_PRODUCT = "Ultra-Lightweight Water-Repellent Packable Hooded Windbreaker Jacket with Reflective Safety Trim"
LONG_FIRST_NAME = "Maximiliana-Alexandrina Konstantinopoulou-Wetherington"
LONG_EMAIL = "maximiliana.konstantinopoulou.wetherington@subdomain.example-company.co.uk"
LONG_WORD = "Loooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooove it!"


@pytest.fixture
def long_names(demo_catalog):
    from insightshop.services import reviews
    from insightshop.services.actors import Actor
    from tests.admin_helpers import make_admin
    from tests.factories import make_paid_order, make_product, make_user

    product = make_product(LONG_PRODUCT, clothing_type="jacket", category="women", sizes=("S", "M"), stock=5)
    buyer = make_user(LONG_EMAIL, first_name=LONG_FIRST_NAME)
    order = make_paid_order(Actor(user=buyer), product, size="M")
    reviews.save_review(Actor(user=buyer), product.id, 5, f"{LONG_WORD} Fits well.")
    make_admin()
    return {"product": product.id, "order": order.id}


def _screenshot(page, name):
    # LONG_NAMES_SHOTS=/some/folder keeps a picture of each page for a person to look at.
    folder = os.environ.get("LONG_NAMES_SHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}-{page.viewport_size['width']}.png", full_page=True)


# The innermost elements reaching past the screen's right edge, named for the failure message.
STICKING_OUT = """width => [...document.body.querySelectorAll('*')]
    .filter(e => e.getBoundingClientRect().right > width + 1 && ![...e.children].some(c => c.getBoundingClientRect().right > width + 1))
    .filter(e => !e.closest('.table-scroll'))
    .slice(0, 5).map(e => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 40)}"`)"""


def _fits(page, name):
    _screenshot(page, name)
    screen = page.viewport_size["width"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width == screen, (name, page.evaluate(STICKING_OUT, screen))


def _log_in(page, live_server, email, password):
    page.goto(f"{live_server}/login")
    page.fill("#email", email)
    page.fill("#password", password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out", exact=True)).to_be_attached()


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_long_names_stay_inside_the_screen(live_server, browser, long_names, screen):
    context = browser.new_context(viewport=screen)
    page = context.new_page()
    page.set_default_timeout(10_000)
    product, order = long_names["product"], long_names["order"]

    _log_in(page, live_server, LONG_EMAIL, "correct horse battery")
    page.goto(f"{live_server}/catalog?q=windbreaker")
    expect(page.get_by_text(LONG_PRODUCT).first).to_be_visible()
    _fits(page, "catalog")
    page.goto(f"{live_server}/products/{product}")
    expect(page.get_by_text(LONG_WORD).first).to_be_visible()
    _fits(page, "product")
    page.locator(".size-option:not(.unavailable)").first.click()
    page.locator(".add-button").click()
    expect(page.locator("#cart-count")).to_have_text("1")
    for name, path in (("cart", "/cart"), ("checkout", "/checkout"), ("account", "/account"),
                       ("order", f"/orders/{order}"), ("receipt", f"/orders/{order}/receipt")):  # fmt: skip
        page.goto(f"{live_server}{path}")
        _fits(page, name)
    page.goto(f"{live_server}/chat")
    page.get_by_role("textbox", name="Message").fill("show me the windbreaker")
    page.get_by_role("textbox", name="Message").press("Enter")
    expect(page.locator(".chat-log").get_by_text(LONG_PRODUCT).first).to_be_visible()
    _fits(page, "chat")
    context.close()

    admin = browser.new_context(viewport=screen).new_page()
    admin.set_default_timeout(10_000)
    _log_in(admin, live_server, "boss@example.com", "an admin password")
    for name, path in (("admin-products", "/admin/products"), ("admin-product", f"/admin/products/{product}"),
                       ("admin-orders", "/admin/orders"), ("admin-order", f"/admin/orders/{order}"),
                       ("admin-users", "/admin/users"), ("admin-reviews", "/admin/reviews"),
                       ("admin-dashboard", "/admin")):  # fmt: skip
        admin.goto(f"{live_server}{path}")
        _fits(admin, name)
