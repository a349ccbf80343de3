"""A shopper's multi-turn follow-up in the assistant's panel, on a phone and on a desktop (issue 28): the brief keeps
"not white" and "any cheaper ones?" shows only trainers cheaper than the cheapest just shown, none of them white."""

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
    expect(page.locator("#chat-log .chat-msg--assistant")).to_have_count(count + 1)
    return page.locator("#chat-log .chat-msg--assistant").last


def prices(answer) -> list[Decimal]:
    return [Decimal(text.strip().lstrip("$").split()[0].lstrip("$"))
            for text in answer.locator(".chat-products .chat-product-price").all_text_contents()]  # fmt: skip


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_follow_up_in_the_panel_keeps_the_exclusion_and_shows_only_cheaper(live_server, browser, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()

    first = ask(page, "trainers, not white")
    expect(first.locator(".chat-product").first).to_be_visible()
    shown = prices(first)
    assert shown

    answer = ask(page, "any cheaper ones?")
    expect(answer).to_contain_text(f"under ${min(shown)}".replace(".00", ""))
    expect(answer).to_contain_text("not white")
    expect(answer.locator(".chat-product").first).to_be_visible()
    cheaper = prices(answer)
    assert cheaper and all(price < min(shown) for price in cheaper)
    names = answer.locator(".chat-products .chat-product-name").all_text_contents()
    rows = db.session.query(Product).filter(Product.name.in_(names), Product.clothing_type == "sneakers").all()
    assert rows and all(p.color != "white" for p in rows if p.price < min(shown))
    box = answer.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]  # nothing spills sideways
    assert errors == []
    context.close()
