import re

from tests.factories import make_product


def test_home_shows_departments_featured_and_new_arrivals(client):
    make_product("Oxford Shirt", is_featured=True, rating="4.8")
    make_product("Wrap Dress", clothing_type="dress", category="women")

    html = client.get("/").get_data(as_text=True)

    assert "Shop by department" in html
    assert "Customer favourites" in html and "Oxford Shirt" in html
    assert "Just landed" in html and "Wrap Dress" in html
    assert '<script src="/static/js/htmx-2.0.11.min.js"' in html


def test_catalog_page_lists_products_with_facets_and_counts(client):
    make_product("Oxford Shirt", color="white", category="men", price="59.00")
    make_product("Poplin Blouse", clothing_type="blouse", color="pink", category="women")

    html = client.get("/catalog?category=men").get_data(as_text=True)

    assert "Oxford Shirt" in html and "Poplin Blouse" not in html
    assert "1 product" in html
    assert re.search(r'name="category" value="men" checked', html)
    assert re.search(r'Women <span class="count">1</span>', html)  # other departments still counted
    assert "$59.00" in html
    assert 'hx-push-url="true"' in html


def test_catalog_search_text_is_kept_and_results_match(client):
    make_product("Heavyweight Pocket Tee", clothing_type="t-shirt", color="white")
    make_product("Oxford Shirt", color="white")

    html = client.get("/catalog?q=tees").get_data(as_text=True)

    assert 'value="tees"' in html
    assert "Heavyweight Pocket Tee" in html and "Oxford Shirt" not in html


def test_catalog_ignores_bad_parameters_instead_of_failing(client):
    make_product("Oxford Shirt")

    response = client.get("/catalog?page=abc&color=chartreuse&sort=odd&min_price=x&per_page=0")

    assert response.status_code == 200
    assert "Oxford Shirt" in response.get_data(as_text=True)


def test_htmx_filter_request_gets_only_results_and_facets(htmx_client):
    make_product("Oxford Shirt", color="white")
    make_product("Merino Sweater", clothing_type="sweater", color="navy")

    response = htmx_client.get("/catalog?q=&color=navy&min_price=")
    html = response.get_data(as_text=True)

    assert "<html" not in html and "site-header" not in html
    assert html.lstrip().startswith('<div id="results"')
    assert "Merino Sweater" in html and "Oxford Shirt" not in html
    assert '<div id="facets" class="facets" hx-swap-oob="true">' in html
    assert response.headers["HX-Push-Url"] == "/catalog?color=navy"
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_history_restore_gets_the_whole_page(htmx_client):
    response = htmx_client.get("/catalog", headers={"HX-History-Restore-Request": "true"})

    assert "<html" in response.get_data(as_text=True)


def test_htmx_filter_request_updates_the_filters_drawer_count(htmx_client):
    make_product("Merino Sweater", clothing_type="sweater", color="navy", category="men")
    make_product("Navy Chinos", clothing_type="pants", color="navy", category="men")
    make_product("Oxford Shirt", color="white", category="men")
    make_product("Navy Blouse", clothing_type="blouse", color="navy", category="women")

    html = htmx_client.get("/catalog?category=men&color=navy").get_data(as_text=True)

    button = re.search(r'<div id="filters-footer"[^>]*hx-swap-oob="true">.*?</div>', html, re.S).group(0)
    assert re.search(r'<button id="show-results"[^>]*>Show 2 results</button>', button)
    assert 'href="/catalog"' in button  # "Clear all" keeps nothing but the words and the sort
    assert '<span id="filters-label" hx-swap-oob="true">Filters (2)</span>' in html
    assert '<p class="muted results-count">2 products</p>' in html  # the same search as the results


def test_filters_drawer_count_is_singular_or_none(client, htmx_client):
    make_product("Merino Sweater", clothing_type="sweater", color="navy")

    one = htmx_client.get("/catalog?color=navy").get_data(as_text=True)
    none = htmx_client.get("/catalog?color=red").get_data(as_text=True)
    page = client.get("/catalog").get_data(as_text=True)

    assert re.search(r'id="show-results"[^>]*>Show 1 result</button>', one)
    assert re.search(r'id="show-results"[^>]*>No results</button>', none)
    # the whole page has the drawer with its count, no "Clear all" when nothing is filtered
    assert re.search(
        r'<div id="filters-footer" class="filters-foot">\s*<button id="show-results"[^>]*>Show 1 result<', page
    )
    assert '<span id="filters-label">Filters</span>' in page


def test_catalog_paginates_with_links(client):
    for number in range(30):
        make_product(f"Sock {number:02d}", clothing_type="socks")

    html = client.get("/catalog?sort=newest").get_data(as_text=True)
    page_two = client.get("/catalog?sort=newest&page=2").get_data(as_text=True)

    assert "30 products" in html
    assert 'href="/catalog?sort=newest&amp;page=2"' in html
    assert "Sock 29" in html and "Sock 05" not in html
    assert "Sock 05" in page_two and "Sock 29" not in page_two


def test_product_page_shows_per_variant_stock_for_the_chosen_colour(client):
    product = make_product(
        "Oxford Shirt", color="white", colors=("white", "navy"), sizes=("M", "L", "XL"),
        stock={"white/M": 12, "white/L": 2, "white/XL": 0, "navy/M": 0, "navy/L": 7, "navy/XL": 9},
    )  # fmt: skip

    white = client.get(f"/products/{product.id}").get_data(as_text=True)
    navy_large = client.get(f"/products/{product.id}?color=navy&size=L").get_data(as_text=True)

    assert '<h1 class="product-title">Oxford Shirt</h1>' in white
    assert "Only 2 left" in white and "Out of stock" in white
    assert "Choose a size to see its stock" in white
    assert "In stock in Navy / L (7 available)" in navy_large
    assert f"/products/{product.id}/image.svg?color=navy" in navy_large


def test_product_fragment_for_htmx_pickers(htmx_client):
    product = make_product("Oxford Shirt", sizes=("L",), stock=3)

    html = htmx_client.get(f"/products/{product.id}?size=L").get_data(as_text=True)

    assert html.lstrip().startswith('<div id="product-main"')
    assert "Only 3 left in White / L" in html
    assert "breadcrumbs" not in html


def test_missing_or_inactive_product_is_a_404_page(client):
    hidden = make_product("Retired", is_active=False)

    for url in ("/products/999", f"/products/{hidden.id}"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Something is not right" in response.get_data(as_text=True)


def test_product_text_is_escaped(client):
    product = make_product("<script>alert(1)</script> Shirt", description="<img src=x onerror=alert(1)>")

    html = client.get(f"/products/{product.id}").get_data(as_text=True)

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Shirt" in html
    assert "<img src=x" not in html


def test_product_image_is_an_svg_tinted_per_colour_and_cacheable(client):
    product = make_product("Oxford Shirt", colors=("white", "navy"))

    response = client.get(f"/products/{product.id}/image.svg?color=navy")
    again = client.get(
        f"/products/{product.id}/image.svg?color=navy", headers={"If-None-Match": response.headers["ETag"].strip('"')}
    )

    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg") and "<title>Navy shirt</title>" in response.get_data(
        as_text=True
    )
    assert again.status_code == 304
    assert client.get(f"/products/{product.id}/image.svg?color=red").status_code == 404


def test_every_response_carries_security_headers(client):
    for url in ("/", "/catalog", "/api/products", "/nope"):
        headers = client.get(url).headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy


def test_session_cookie_is_httponly_and_samesite_lax(client):
    cookie = client.get("/").headers["Set-Cookie"]

    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # only in production


def test_pages_have_no_inline_scripts_or_styles(client):
    make_product("Oxford Shirt")
    for url in ("/", "/catalog", "/products/1"):
        html = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html and "<style" not in html, url


def test_health_check(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
