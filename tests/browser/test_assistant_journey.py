"""A guest shops with the assistant in a real browser (offline engine): search by chat, a size picked on a card,
a follow-up, checkout by chat with Approve — every result in view — and the panel at desktop and phone sizes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.models.orders import Order

ANSWERS = "#chat-log .chat-msg--assistant"
ADDRESS = "checkout and ship to John Smith, 221 Baker Street, Boston, Massachusetts 02108, john@smith.io"
SIZES = [(1280, 800), (390, 844)]


def ask(page, text):
    """Send a message from the panel and wait for its answer (the typing indicator shows meanwhile)."""
    count = page.locator(ANSWERS).count()
    page.locator("#chat-input").fill(text)
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator(ANSWERS)).to_have_count(count + 1)
    expect(page.locator("#chat-log .chat-typing")).to_have_count(0)
    return page.locator(ANSWERS).last


def assert_in_panel_view(page, locator):
    """The element is inside the part of the panel's log the shopper can see (not scrolled away below)."""
    log, box = page.locator("#assistant-panel #chat-log").bounding_box(), locator.bounding_box()
    assert box is not None and log is not None
    assert box["y"] >= log["y"] - 1 and box["y"] + min(box["height"], log["height"]) <= log["y"] + log["height"] + 1, (
        box,
        log,
    )


def cart_lines():
    db.session.expire_all()
    return [(i.variant.product.name, i.variant.color, i.variant.size, i.quantity) for i in db.session.query(CartItem)]


def pick_a_size(card):
    """The first product on the card with several sizes: click its first size in stock in the colour the card
    has selected; returns (name, colour, size)."""
    tile = card.locator(".chat-product").filter(has=card.page.locator(".size-chip:not([disabled])")).first
    name = tile.locator(".chat-product-name").text_content().strip()
    color = tile.locator("input[name=color][type=hidden], input[name=color]:checked").first.input_value()
    chip = tile.locator(".size-chip:not([disabled])").first
    size = chip.text_content().strip()
    chip.click()
    return name, color, size


def test_a_guest_searches_picks_a_size_follows_up_and_checks_out_by_chat(live_server, page):
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()

    results = ask(page, "show me white shirts")
    expect(results.locator(".chat-product").first).to_be_visible()
    assert results.locator(".size-chip").count() > 0  # multi-size products offer their sizes
    assert "add product" not in page.locator("#chat-log").inner_text()

    name, color, size = pick_a_size(results)
    added = page.locator(ANSWERS).last
    expect(page.locator("#chat-log .chat-msg--user").last).to_have_text(
        f"Add 1 × {name} ({color.capitalize()} / {size})"
    )
    expect(added.locator(".chat-cart")).to_contain_text(f"1 × {name}")
    expect(page.locator("#cart-count")).to_have_text("1")
    assert cart_lines() == [(name, color, size, 1)]
    assert_in_panel_view(page, added)

    # The conversation survives moving to another page; the panel reopens where the shopper left it.
    page.goto(f"{live_server}/cart")
    expect(page.locator("#assistant-panel")).to_have_attribute("open", "")
    expect(page.locator("#chat-log")).to_contain_text(f"Add 1 × {name} ({color.capitalize()} / {size})")
    assert_in_panel_view(page, page.locator(ANSWERS).last)

    follow_up = ask(page, "make that 2")
    quantity = cart_lines()[0][3]
    assert quantity == 2  # the follow-up changed the line the size button added
    assert_in_panel_view(page, follow_up)

    proposal = ask(page, ADDRESS)
    confirm = page.locator("#" + proposal.locator(".chat-confirm").get_attribute("id"))  # pinned: not "the last"
    expect(confirm).to_contain_text("221 Baker Street")
    assert db.session.query(Order).count() == 0  # nothing happens before approval
    approve = confirm.get_by_role("button", name="Approve")
    approve.click()
    result = page.locator(ANSWERS).last
    expect(result.locator(".chat-card").first).to_contain_text("Order #")
    expect(confirm.locator(".chat-confirm-status")).to_have_text("✓ Approved")
    expect(confirm.get_by_role("button")).to_have_count(0)  # no second approval possible
    assert_in_panel_view(page, result)
    db.session.expire_all()
    order = db.session.query(Order).one()
    assert (order.shipping_name, order.shipping_address) == ("John Smith", "221 Baker Street")
    assert [(i.quantity, i.color, i.size) for i in order.items] == [(quantity, color, size)]
    assert page.console_errors == []


def test_failed_requests_are_shown_in_the_panel(live_server, page):
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()
    page.route("**/chat/message", lambda route: route.abort())
    page.locator("#chat-input").fill("show me white shirts")
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator("#chat-log .chat-msg--error")).to_have_text(
        "I couldn't reach the shop. Check your connection and try again."
    )
    expect(page.locator("#chat-input")).to_have_value("show me white shirts")  # kept for another try
    page.unroute("**/chat/message")

    page.route("**/chat/message", lambda route: route.fulfill(status=500, body="boom"))
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator("#chat-log .chat-msg--error").last).to_contain_text("error 500")
    page.unroute("**/chat/message")

    page.evaluate("document.querySelector('#assistant-panel input[name=csrf_token]').value = 'stale'")
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator("#chat-log .chat-msg--error").last).to_have_text(
        "Your session has expired. Reload the page and try again."
    )
    assert_in_panel_view(page, page.locator("#chat-log .chat-msg--error").last)
    expect(page.locator("#chat-log .chat-typing")).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_panel_at_desktop_and_phone_sizes(live_server, browser, tmp_path, width, height):
    """Screenshots of a product card with size buttons, a confirmation and an error; the panel fits a phone and
    the closed button stays out of the way of the page (on a phone, in a bar along the bottom the page leaves
    room for)."""
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server}/")
    toggle = page.locator(".assistant-toggle")
    if width < 600:  # a bar along the bottom of the screen, with the room for it kept below the page
        box = toggle.bounding_box()
        assert box["y"] + box["height"] >= height - 16 and box["height"] >= 44
        padding = page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")
        assert padding >= height - box["y"]
    else:  # a pill in the corner
        box = toggle.bounding_box()
        assert box["width"] <= 240 and box["height"] <= 56
    toggle.click()

    results = ask(page, "show me white shirts")
    expect(results.locator(".size-chip").first).to_be_visible()
    page.screenshot(path=str(shots / f"panel-card-{width}.png"))
    pick_a_size(results)
    expect(page.locator("#cart-count")).to_have_text("1")
    confirm = ask(page, "empty my cart").locator(".chat-confirm")
    expect(confirm.get_by_role("button", name="Approve")).to_be_visible()
    assert_in_panel_view(page, confirm)
    page.screenshot(path=str(shots / f"panel-confirm-{width}.png"))
    page.route("**/chat/message", lambda route: route.fulfill(status=500, body="boom"))
    page.locator("#chat-input").fill("hello")
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator("#chat-log .chat-msg--error")).to_be_visible()
    page.screenshot(path=str(shots / f"panel-error-{width}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") == width

    # Closed, at the very end of a page, the button covers none of the page's links, buttons or text.
    page.unroute("**/chat/message")
    toggle.click()
    page.goto(f"{live_server}/cart")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    covered = page.evaluate(
        """() => {
          const t = document.querySelector('.assistant-toggle').getBoundingClientRect();
          return [...document.querySelectorAll('main a, main button, main p, main td, main h2, footer a, footer p')]
            .filter(e => { const r = e.getBoundingClientRect();
              return r.width && r.height && r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top; })
            .map(e => e.textContent.trim().slice(0, 40));
        }"""
    )
    assert covered == []
    page.screenshot(path=str(shots / f"page-bottom-{width}.png"))
    context.close()


def test_log_me_out_in_chat_logs_the_browser_out(live_server, page):
    from insightshop.models.accounts import LoginSession
    from tests.factories import make_user

    make_user("sam@example.com")
    page.goto(f"{live_server}/login")
    page.fill("#email", "sam@example.com")
    page.fill("#password", "correct horse battery")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out", exact=True)).to_be_visible()
    page.locator(".assistant-toggle").click()

    page.locator("#chat-input").fill("log me out")
    page.locator("#assistant-panel form.chat-form button").click()

    # The whole page reloads logged out (this one, the account page, now asks to log in).
    expect(page.locator(".alert").filter(has_text="You are logged out.")).to_be_visible()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    db.session.expire_all()
    assert db.session.query(LoginSession).one().revoked_at is not None
    page.goto(f"{live_server}/account")
    expect(page).to_have_url(f"{live_server}/login?next=%2Faccount")
    assert page.console_errors == []
