"""Issue 29, items 1 and 2: the product page holds still. Picking a size or colour swaps only the buy box (and the
picture), keeps the scroll position and returns focus to the option picked; on a phone the price and the sizes show on
arrival, and a bar with "Add to cart · $price" stays in reach while the buy box is scrolled away. Both viewports."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import Product

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def screen(request, browser):
    context = browser.new_context(viewport=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.is_phone = request.param is PHONE
    yield page
    context.close()


def scroll_y(page) -> float:
    return page.evaluate("window.scrollY")


def focused_id(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def test_a_size_pick_keeps_the_page_still_and_the_focus_on_the_size(live_server, screen):
    screen.goto(f"{live_server}/products/1")
    screen.locator("#size-M").scroll_into_view_if_needed()
    screen.mouse.wheel(0, 120)  # somewhere in the middle of the page, not at an edge the browser would keep anyway
    screen.wait_for_timeout(200)
    before = scroll_y(screen)

    screen.locator("#size-M").click()

    expect(screen.locator("#size-M")).to_have_class("size-option selected")
    expect(screen).to_have_url(f"{live_server}/products/1?color=white&size=M")
    assert abs(scroll_y(screen) - before) <= 2
    assert focused_id(screen) == "size-M"
    expect(screen.locator("#buy-box .add-button")).to_be_enabled()
    assert screen.locator("#reviews").count() == 1 and screen.locator("#buy-box").count() == 1
    assert screen.console_errors == []


def test_after_a_pick_the_add_button_is_a_few_tabs_away(live_server, screen):
    screen.goto(f"{live_server}/products/1")
    screen.locator("#size-M").click()
    expect(screen.locator("#size-M")).to_have_class("size-option selected")
    presses = 0
    while presses < 8 and not screen.evaluate("document.activeElement.classList.contains('add-button')"):
        screen.keyboard.press("Tab")
        presses += 1
    assert screen.evaluate("document.activeElement.classList.contains('add-button')") and presses <= 6


def test_a_colour_pick_changes_the_picture_and_keeps_the_focus_on_the_colour(live_server, screen):
    screen.goto(f"{live_server}/products/3")
    before = scroll_y(screen)
    screen.locator("#color-green").click()

    expect(screen.locator("#product-picture img")).to_have_attribute("src", "/products/3/image.svg?color=green")
    assert focused_id(screen) == "color-green" and abs(scroll_y(screen) - before) <= 2
    assert screen.locator("#product-picture").count() == 1
    assert screen.console_errors == []


def test_price_and_sizes_show_on_arrival(live_server, screen):
    screen.goto(f"{live_server}/products/1")
    height = screen.viewport_size["height"]
    for selector in (".product-price", "#size-S"):
        found = screen.locator(selector).bounding_box()
        assert found is not None and found["y"] + found["height"] <= height - (57 if screen.is_phone else 0), selector


def test_the_buy_bar_follows_on_a_phone_and_adds_the_size_picked(live_server, screen, demo_catalog):
    screen.goto(f"{live_server}/products/1?color=white&size=M")
    bar = screen.locator("[data-sticky-buy]")
    expect(bar).to_be_hidden()  # the buy box itself is in view
    screen.locator("#reviews").scroll_into_view_if_needed()
    if not screen.is_phone:
        expect(bar).to_be_hidden()
        return
    price = f"${db.session.get(Product, 1).price:.2f}"
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Size M")
    bar.get_by_role("button", name=f"Add to cart · {price}").click()
    expect(screen.locator("#add-status")).to_contain_text("Added")
    expect(screen.locator(".cart-count, [data-cart-count]").first).to_have_text("1")


def test_a_failed_pick_says_so_above_the_sizes_and_keeps_them_in_a_row(live_server, screen):
    screen.goto(f"{live_server}/products/1")
    screen.route("**/products/1?*", lambda route: route.fulfill(status=500, body="boom"))
    screen.locator("#size-L").click()

    alert = screen.locator(".htmx-error").first
    expect(alert).to_contain_text("Something went wrong on our side")
    sizes_top = screen.locator(".size-options").bounding_box()["y"]
    assert alert.bounding_box()["y"] < sizes_top  # above the size group, never between its buttons
    assert screen.locator("#size-M").bounding_box()["y"] == screen.locator("#size-L").bounding_box()["y"]
