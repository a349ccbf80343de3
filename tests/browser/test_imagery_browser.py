"""Product imagery in a real browser: home grids end in full rows on a laptop and a phone, and the product page's
gallery changes the picture by mouse, keyboard and without JavaScript."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.factories import make_product

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# The top of every card, grid by grid, in page order.
CARD_TOPS = """() => [...document.querySelectorAll('.grid--rows')].map(grid => ({
    title: grid.closest('section').querySelector('h2').textContent.trim(),
    tops: [...grid.children].map(card => Math.round(card.getBoundingClientRect().top)),
}))"""


def _start_a_sale():
    from insightshop.extensions import db
    from insightshop.models.sales import Sale
    from insightshop.services import pricing

    today = pricing.today()
    db.session.add(Sale(name="Knit Week", discount_percentage=Decimal("20"), is_active=True,
                        clothing_types=["sweater", "hoodie"], start_date=today - timedelta(days=1),
                        end_date=today + timedelta(days=3)))  # fmt: skip
    db.session.commit()


@pytest.mark.parametrize(("viewport", "across"), [(LAPTOP, 4), (PHONE, 2)], ids=["laptop", "phone"])
def test_every_home_grid_ends_in_a_full_row(live_server, browser, viewport, across):
    _start_a_sale()
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(live_server)

    grids = page.evaluate(CARD_TOPS)

    assert [g["title"] for g in grids] == ["On sale now", "Customer favourites", "Just landed"]
    for grid in grids:
        rows = [grid["tops"].count(top) for top in sorted(set(grid["tops"]))]
        assert rows == [across] * len(rows) and len(rows) >= 2, grid  # 8 cards: 2 rows of 4, 4 rows of 2
    context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_gallery_changes_the_picture_by_mouse_and_keyboard(live_server, browser, viewport):
    product = make_product("Gallery Oxford Shirt", colors=("white", "navy", "green", "red"), sizes=("M", "L"))
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{live_server}/products/{product.id}?size=L")
    page.evaluate("window.__sameDocument = true")
    picture = page.locator(".product-picture img")
    expect(picture).to_have_attribute("src", re.compile(r"color=white$"))

    page.get_by_role("link", name="Navy", exact=True).first.click()

    expect(picture).to_have_attribute("src", re.compile(r"color=navy$"))
    expect(page).to_have_url(re.compile(r"color=navy&size=L$"))
    expect(page.locator("#picture-navy")).to_have_attribute("aria-current", "true")
    expect(page.locator("#picture-white")).not_to_have_attribute("aria-current", "true")
    expect(page.locator(".picker-label strong").first).to_have_text("Navy")
    expect(page.locator("input[name=color]")).to_have_value("navy")
    assert page.evaluate("document.activeElement.id") == "picture-navy"  # focus stays on the chosen thumbnail

    page.locator("#picture-green").focus()
    page.keyboard.press("Enter")
    expect(picture).to_have_attribute("src", re.compile(r"color=green$"))
    expect(page.locator("#picture-green")).to_have_attribute("aria-current", "true")
    assert page.evaluate("document.activeElement.id") == "picture-green"

    page.locator("#picture-close-up").click()
    expect(picture).to_have_attribute("src", re.compile(r"color=green&view=close-up$"))
    expect(picture).to_have_attribute("alt", "Gallery Oxford Shirt in Green, close-up")
    page.wait_for_function("document.querySelector('.product-picture img').naturalWidth > 0")
    assert page.evaluate("window.__sameDocument") is True  # swapped by htmx, not reloaded
    expect(page.locator("#product-rating")).to_have_count(1)  # the rating line survives every swap
    assert errors == []
    context.close()


def test_the_gallery_works_without_javascript(live_server, browser):
    product = make_product("Gallery Oxford Shirt", colors=("white", "navy"), sizes=("M",))
    context = browser.new_context(java_script_enabled=False, viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"{live_server}/products/{product.id}")

    page.locator("#picture-navy").click()

    page.wait_for_url(re.compile(r"color=navy$"))
    expect(page.locator(".product-picture img")).to_have_attribute("src", re.compile(r"color=navy$"))
    expect(page.locator("#picture-navy")).to_have_attribute("aria-current", "true")
    context.close()
