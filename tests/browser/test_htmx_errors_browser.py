"""A failed htmx request shows its message where the shopper is looking (issue 12 item 4)."""

import re

from playwright.sync_api import expect


def test_an_expired_session_on_add_to_cart_says_so_next_to_the_button(live_server, page):
    page.goto(f"{live_server}/products/1?size=L")
    # What an expired session looks like to the server: a CSRF token it no longer accepts.
    page.evaluate("""document.body.setAttribute('hx-headers', '{"X-CSRFToken": "expired"}')""")
    page.evaluate("document.querySelectorAll('input[name=csrf_token]').forEach(i => i.value = 'expired')")

    page.locator(".add-button").click()

    alert = page.locator(".htmx-error[role=alert]")
    expect(alert).to_contain_text("session expired")
    expect(alert).to_be_in_viewport()
    expect(page.locator("#cart-count")).to_have_text("0")


def test_a_refused_filter_explains_itself_instead_of_leaving_stale_results(live_server, page):
    page.goto(f"{live_server}/catalog")
    page.evaluate("""() => {
        document.querySelector('input[name=min_price]').value = '90';
        document.querySelector('input[name=max_price]').value = '10';
        document.querySelector('input[name=max_price]').dispatchEvent(new Event('change', {bubbles: true}));
    }""")

    expect(page.locator(".htmx-error[role=alert]")).to_contain_text(re.compile(r"price", re.I))


def test_a_lost_connection_is_reported(live_server, page):
    page.goto(f"{live_server}/catalog")
    page.context.set_offline(True)
    page.locator("#catalog-q").press_sequentially("shirt", delay=30)

    expect(page.locator(".htmx-error[role=alert]")).to_contain_text("could not reach the shop")
    page.context.set_offline(False)


def test_after_a_price_range_link_the_filter_form_still_submits(live_server, page):
    page.goto(f"{live_server}/catalog")
    page.locator(".price-links a").filter(has_text="99.99").first.click()
    expect(page).to_have_url(re.compile(r"max_price=99\.99"))
    expect(page.locator("input[name=max_price]")).to_have_value("99.99")

    page.select_option("#catalog-sort", "price_low")  # the browser would refuse a step=1 field holding 99.99

    expect(page).to_have_url(re.compile(r"sort=price_low"))
    assert page.evaluate("document.querySelector('#catalog-form').checkValidity()") is True


def test_next_page_brings_the_shopper_to_the_top_of_the_new_results(live_server, page):
    page.goto(f"{live_server}/catalog")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    first = page.locator("#results .card-title").first.text_content()

    page.get_by_role("link", name="Next →").click()

    expect(page).to_have_url(re.compile(r"page=2"))
    expect(page.locator("#results .card-title").first).not_to_have_text(first)
    page.wait_for_function("window.scrollY < 200")


def test_on_a_phone_the_header_is_compact_and_nothing_is_wider_than_the_screen(live_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for path in (
        "/",
        "/catalog",
        "/products/1",
        "/cart",
        "/help",
        "/size-guide",
        "/orders/lookup",
        "/login",
        "/register",
    ):
        page.goto(f"{live_server}{path}")
        height = page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")
        assert height <= 150, (path, height)
        assert page.evaluate("document.documentElement.scrollWidth") == 390, path
    page.goto(f"{live_server}/catalog")
    assert page.locator(".header-search").is_hidden()  # one search on the catalog: its own
    context.close()
