"""A shopper's multi-turn follow-up in the assistant's panel, on a phone and on a desktop (issue 28): the brief keeps
"not white" and "any cheaper ones?" shows only men's trainers cheaper than the cheapest just shown, none of them white."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import Product

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def ask(page, text):
    count = page.locator("#chat-log .chat-msg--assistant").count()
    box = page.locator("form.chat-form input[name=message]").first
    box.fill(text)
    page.locator("form.chat-form button").first.click()
    # the first message of a fresh server trains the intent classifier (a few seconds on a loaded machine)
    expect(page.locator("#chat-log .chat-msg--assistant")).to_have_count(count + 1, timeout=60_000)
    return page.locator("#chat-log .chat-msg--assistant").last


def prices(answer) -> list[Decimal]:
    """The prices of the products that match (a suggestion's tile says what it misses)."""
    tiles = answer.locator(".chat-products .chat-product:not(:has(.chat-product-misses)) .chat-product-price")
    return [Decimal(text.split()[0].lstrip("$")) for text in tiles.all_text_contents()]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_follow_up_in_the_panel_keeps_the_exclusion_and_shows_only_cheaper(live_server, browser, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()

    first = ask(page, "mens trainers over $100, not white")
    expect(first.locator(".chat-product").first).to_be_visible()
    shown = prices(first)
    assert shown

    answer = ask(page, "any cheaper ones?")
    expect(answer).to_contain_text(f"under ${min(shown)}".replace(".00", ""))
    expect(answer).to_contain_text("not white")
    expect(answer.locator(".chat-product").first).to_be_visible()
    cheaper = prices(answer)
    assert cheaper and all(price < min(shown) for price in cheaper)
    white = {p.name for p in db.session.query(Product).filter_by(clothing_type="sneakers", color="white")}
    names = set(answer.locator(".chat-products .chat-product-name").all_text_contents())  # matches and suggestions
    assert white and names and not names & white
    box = answer.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]  # nothing spills sideways
    assert errors == []
    context.close()
