"""What a shopper does in the catalog, in a real browser: search as you type, pick a facet, open a product."""

import re

from playwright.sync_api import expect


def test_shopper_searches_filters_and_opens_a_product(live_server, page, tmp_path):
    page.goto(f"{live_server}/catalog")
    expect(page.locator("#results h1")).to_have_text("All products")
    page.evaluate("window.__sameDocument = true")  # survives only if htmx swaps instead of reloading

    page.locator("#catalog-q").press_sequentially("white shirt", delay=40)
    expect(page).to_have_url(re.compile(r"/catalog\?q=white\+shirt$"))
    expect(page.locator("#results h1")).to_have_text("Search results for “white shirt”")
    first_titles = page.locator("#results .card-title").all_text_contents()[:3]
    assert all("Shirt" in title for title in first_titles), first_titles

    men = page.locator("#f-category-men")
    men_count = int(page.locator("label[for=f-category-men] .count").text_content())
    men.check()
    expect(page).to_have_url(re.compile(r"category=men"))
    expect(page.locator("#results .results-count")).to_have_text(f"{men_count} product{'s' if men_count != 1 else ''}")
    departments = set(page.locator("#results .card-department").all_text_contents())
    assert departments == {"Men"}
    expect(page.locator("#results .chip").first).to_contain_text("Men")
    page.select_option("#catalog-sort", "price_low")
    expect(page).to_have_url(re.compile(r"sort=price_low"))
    prices = [float(p.strip("$").replace(",", "")) for p in page.locator("#results .card-price").all_text_contents()]
    assert prices == sorted(prices) and len(prices) == men_count
    assert page.evaluate("window.__sameDocument") is True
    page.screenshot(path=str(tmp_path / "catalog.png"), full_page=True)

    title = page.locator("#results .card-title").first.text_content()
    page.locator("#results .card-link").first.click()
    page.wait_for_url(re.compile(r"/products/\d+$"))
    expect(page.locator("h1.product-title")).to_have_text(title)
    expect(page.locator(".availability")).to_have_text("Choose a size to see its stock")

    page.locator(".size-option:not(.unavailable)").filter(has_text="L").first.click()
    expect(page).to_have_url(re.compile(r"size=L"))
    expect(page.locator(".availability")).to_have_text(re.compile(r"(In stock in|Only \d+ left in) White / L"))
    expect(page.locator(".size-option.selected .size-code")).to_have_text("L")

    expect(page.locator("#cart-count")).to_have_text("0")
    page.locator("select[name=quantity]").select_option("2")
    page.locator(".add-button").click()
    expect(page.locator("#add-status")).to_contain_text(f"Added {title} (White / L) to your cart.")
    expect(page.locator("#cart-count")).to_have_text("2")
    page.screenshot(path=str(tmp_path / "product.png"), full_page=True)

    assert (tmp_path / "catalog.png").stat().st_size > 10_000
    assert page.console_errors == []  # no CSP violations, no script errors


def test_catalog_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/catalog")

    page.fill("#catalog-q", "navy")
    page.locator(".catalog-search button").click()
    page.wait_for_url(re.compile(r"q=navy"))

    expect(page.locator("#results h1")).to_have_text("Search results for “navy”")
    assert page.locator("#results .card").count() > 0
    context.close()
