"""The shop on a 390 × 844 phone: the catalog's filters in a drawer, the assistant in a bar that covers no price,
sort control, field or header control, touch targets of at least 44 px and footer links that wrap between links."""

import re

import pytest
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}

# What the assistant's button must never hide: prices, the sort control and form fields.
UNCOVERED = (
    ".card-price, .product-price, .cart-line-total, .summary-row, .delivery-option__cost, #catalog-sort, "
    "main input:not([type=hidden]), main select, main textarea"
)


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def overlap(a, b):
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def focus_in(page, selector):
    return page.evaluate("s => document.querySelector(s).contains(document.activeElement)", selector)


def add_a_shirt_to_the_cart(page, live_server):
    page.goto(f"{live_server}/products/1")
    page.locator(".size-option:not(.unavailable)").first.click()
    expect(page.locator(".add-button")).to_be_enabled()
    page.locator(".add-button").click()
    expect(page.locator("#cart-count")).to_have_text("1")


def test_filters_open_in_a_drawer_whose_button_counts_the_results(live_server, phone):
    phone.goto(f"{live_server}/catalog?category=men")
    toggle = phone.locator(".filters-toggle")
    sheet = phone.locator(".filters-sheet")
    show = phone.locator("#show-results")
    expect(toggle).to_have_text("Filters (1)")
    expect(sheet).to_be_hidden()
    filters, sort = toggle.bounding_box(), box(phone, "#catalog-sort")
    assert abs((filters["y"] + filters["height"] / 2) - (sort["y"] + sort["height"] / 2)) < 2  # one row
    assert not overlap(filters, sort)

    toggle.click()
    expect(sheet).to_have_attribute("role", "dialog")
    assert sheet.bounding_box() == {"x": 0, "y": 0, "width": 390, "height": 844}  # a full-height sheet
    assert focus_in(phone, ".filters-sheet")
    men = int(phone.locator("#results .results-count").text_content().split()[0])
    expect(show).to_have_text(f"Show {men} results")
    navy = int(phone.locator("label[for=f-color-navy] .count").text_content())
    assert 0 < navy <= 24  # one page of results

    phone.locator("#f-color-navy").check()
    expect(show).to_have_text(f"Show {navy} results")
    expect(toggle).to_have_text("Filters (2)")
    assert focus_in(phone, ".filters-sheet")  # the swapped facets keep the ticked box focused
    phone.locator(".filters-body").evaluate("body => body.scrollTo(0, body.scrollHeight)")
    assert show.bounding_box()["y"] + show.bounding_box()["height"] <= 844  # the button stays in view
    assert phone.evaluate("document.documentElement.scrollWidth") == 390

    show.click()
    expect(sheet).to_be_hidden()
    expect(phone.locator("#results .results-count")).to_have_text(f"{navy} products")
    expect(phone.locator("#results > .grid > .card")).to_have_count(navy)
    assert set(phone.locator("#results > .grid .card-department").all_text_contents()) == {"Men"}
    assert phone.evaluate("document.activeElement.matches('.filters-toggle')")
    expect(phone).to_have_url(re.compile(r"category=men&color=navy"))

    toggle.click()
    phone.locator("#filters-clear").click()
    expect(show).to_have_text("Show 199 results")
    expect(toggle).to_have_text("Filters")
    assert focus_in(phone, ".filters-sheet")
    phone.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    assert phone.evaluate("document.activeElement.matches('.filters-toggle')")
    expect(phone.locator("#results .results-count")).to_have_text("199 products")
    assert phone.evaluate("document.documentElement.scrollWidth") == 390
    assert phone.console_errors == []


def test_without_javascript_the_drawer_submits_its_filters(live_server, browser):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/catalog")

    page.locator(".filters-toggle").click()
    page.locator("label[for=f-category-kids]").click()
    page.locator("#show-results").click()

    page.wait_for_url(re.compile(r"category=kids"))
    expect(page.locator("#results h1")).to_have_text("Kids")
    expect(page.locator(".filters-sheet")).to_be_hidden()
    expect(page.locator(".filters-toggle")).to_have_text("Filters (1)")
    context.close()


def test_on_a_desktop_the_filters_stay_a_sidebar(live_server, page):
    page.goto(f"{live_server}/catalog")

    expect(page.locator("#facets")).to_be_visible()
    expect(page.locator(".filters-toggle")).to_be_hidden()
    expect(page.locator(".filters-head")).to_be_hidden()
    expect(page.locator(".filters-foot")).to_be_hidden()
    assert box(page, "#facets")["x"] < box(page, "#results")["x"]


def test_the_open_assistant_leaves_every_header_control_uncovered(live_server, phone):
    phone.goto(f"{live_server}/products/1")
    phone.locator(".assistant-toggle").click()
    phone.locator("#chat-input").fill("show me white shirts")
    phone.locator("#assistant-panel form.chat-form button").click()
    expect(phone.locator("#chat-log .size-chip").first).to_be_visible()
    assert phone.evaluate("(l => l.scrollHeight > l.clientHeight)(document.getElementById('chat-log'))")  # full
    phone.evaluate("window.scrollTo(0, 0)")

    toggle, panel = box(phone, ".assistant-toggle"), box(phone, ".assistant-body")
    assert not overlap(toggle, box(phone, ".cart-link"))
    controls = phone.locator(".site-header a, .site-header button, .site-header input")
    covered = [c.text_content() or c.get_attribute("aria-label") for c in controls.all()
               if c.is_visible() and (overlap(c.bounding_box(), toggle) or overlap(c.bounding_box(), panel))]  # fmt: skip
    assert covered == []
    assert panel["y"] >= box(phone, ".site-header")["height"]
    assert phone.console_errors == []


COVERED_JS = """selector => {
  const bar = document.querySelector('.assistant-toggle').getBoundingClientRect();
  const hidden = e => { const r = e.getBoundingClientRect();
    return r.width && r.height && r.left < bar.right && r.right > bar.left && r.top < bar.bottom && r.bottom > bar.top; };
  const name = e => (e.id || e.name || e.className) + ' ' + e.textContent.trim().slice(0, 30);
  const elements = [...document.querySelectorAll(selector)].filter(e => e.checkVisibility());
  const covered = elements.filter(hidden).map(e => 'as loaded: ' + name(e));
  for (const e of elements) {  // brought into view, as a shopper scrolls or tabs to it
    e.scrollIntoView({block: 'end'});
    if (hidden(e)) covered.push('in view: ' + name(e));
  }
  window.scrollTo(0, document.documentElement.scrollHeight);
  return covered.concat(elements.filter(hidden).map(e => 'at the end: ' + name(e)));
}"""


def test_the_assistant_covers_no_price_sort_control_or_field(live_server, phone):
    add_a_shirt_to_the_cart(phone, live_server)
    for path in ("/catalog", "/products/1?size=M", "/cart"):
        phone.goto(f"{live_server}{path}")
        assert phone.locator(".assistant-toggle").bounding_box()["height"] >= 44
        assert phone.evaluate(COVERED_JS, UNCOVERED) == [], path
    phone.goto(f"{live_server}/checkout")  # a long form: its lower fields start below the fold
    covered = phone.evaluate(COVERED_JS, UNCOVERED)
    assert [c for c in covered if not c.startswith("as loaded")] == []


TARGETS_JS = """() => {
  // Links inside running text (a sentence with a link in it) are exempt, as in WCAG 2.5.8.
  const inText = e => e.tagName === 'A' && e.parentElement.matches('p, li, span, td')
    && e.parentElement.textContent.trim().length > e.textContent.trim().length + 3;
  const small = [];
  const seen = new Set();
  for (let e of document.querySelectorAll('a[href], button, select, input:not([type=hidden]), textarea, summary')) {
    if (!e.checkVisibility() || inText(e)) continue;
    if (e.matches('input[type=checkbox], input[type=radio]')) e = e.closest('label') || e;  // the label is the target
    if (seen.has(e)) continue;
    seen.add(e);
    const r = e.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5)
      small.push(`${e.tagName} ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 24)} ${r.width|0}x${r.height|0}`);
  }
  return small;
}"""


def test_touch_targets_are_44_px_and_footer_links_keep_their_words_together(live_server, phone):
    add_a_shirt_to_the_cart(phone, live_server)
    for path in ("/", "/catalog?category=men&page=2", "/products/1", "/cart", "/checkout", "/login", "/help"):
        phone.goto(f"{live_server}{path}")
        phone.evaluate("document.querySelector('.skip-link').focus()")  # on screen only when focused
        assert phone.evaluate(TARGETS_JS) == [], path
    phone.goto(f"{live_server}/catalog")
    phone.locator(".filters-toggle").click()
    phone.locator("details.facet:not([open]) > summary").first.click()
    assert phone.evaluate(TARGETS_JS) == [], "filters drawer"
    phone.keyboard.press("Escape")
    phone.locator(".assistant-toggle").click()
    phone.locator("#chat-input").fill("show me white shirts")
    phone.locator("#assistant-panel form.chat-form button").click()
    expect(phone.locator("#chat-log .size-chip").first).to_be_visible()
    assert phone.evaluate(TARGETS_JS) == [], "assistant"

    lines = phone.evaluate(
        """() => [...document.querySelectorAll('.site-footer nav a')].map(a => {
             const range = document.createRange(); range.selectNodeContents(a);
             return [a.textContent.trim(), new Set([...range.getClientRects()].map(r => Math.round(r.top))).size];
           })"""
    )
    assert lines and all(count == 1 for _, count in lines), lines


ADMIN_PAGES = ("/admin", "/admin/products", "/admin/orders", "/admin/sales", "/admin/carts", "/admin/reviews",
               "/admin/users", "/admin/payments", "/admin/returns", "/admin/audit", "/admin/assistant",
               "/admin/products/1")  # fmt: skip


def test_admin_pages_fit_a_phone_and_their_wide_tables_scroll_in_place(live_server, phone):
    from tests.admin_helpers import make_admin

    make_admin()
    phone.goto(f"{live_server}/login")
    phone.fill("#email", "boss@example.com")
    phone.fill("#password", "an admin password")
    phone.get_by_role("button", name="Log in", exact=True).click()
    expect(phone.get_by_role("link", name="Admin", exact=True)).to_be_visible()
    for path in ADMIN_PAGES:
        phone.goto(f"{live_server}{path}")
        # Nothing widens the page, not even a table's visually hidden header text.
        assert phone.evaluate("document.documentElement.scrollWidth") == 390, path
    phone.goto(f"{live_server}/admin/products")
    products = phone.get_by_role("region", name="Products")
    assert products.evaluate("region => region.scrollWidth > region.clientWidth")  # the table scrolls sideways
    products.evaluate("region => region.scrollBy(400, 0)")
    assert products.evaluate("region => region.scrollLeft") > 0
    assert phone.evaluate("window.scrollX") == 0
    assert phone.console_errors == []


def test_a_comparison_in_the_chat_keeps_its_words_whole_on_a_phone(live_server, phone):
    from tests.browser.test_assistant_browser import ask

    phone.goto(f"{live_server}/chat")
    answer = ask(
        phone, "compare the Oxford Button-Down Shirt, the Crisp Poplin Dress Shirt and the Relaxed Linen Shirt"
    )
    table = answer.get_by_role("region", name="Comparison")
    expect(table.locator("tbody th")).to_have_text(["Price", "Rating", "Fabric", "Sizes"])
    lines = table.locator("tbody th").evaluate_all(
        "cells => cells.map(cell => { const r = document.createRange(); r.selectNodeContents(cell); return r.getClientRects().length; })"
    )
    assert lines == [1, 1, 1, 1]  # each on one line: never "Pri / ce"
    assert phone.evaluate("document.documentElement.scrollWidth") == 390
    assert phone.console_errors == []
