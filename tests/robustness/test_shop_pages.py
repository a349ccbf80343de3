"""Every page a shop has is one click from the footer (issue 12 item 16): shipping, returns and contact answers,
privacy and terms; the raw API document is not a shopper's link."""

import re


def test_the_footer_links_shopper_pages_and_each_one_answers(client):
    html = client.get("/").get_data(as_text=True)
    footer = html[html.index('<nav aria-label="Footer">') :]
    links = re.findall(r'href="([^"]+)"', footer[: footer.index("</nav>")])

    assert "/api/openapi.json" not in links
    for wanted in ("/help#shipping", "/help#returns", "/help#contact", "/privacy", "/terms", "/size-guide"):
        assert wanted in links
        assert client.get(wanted.split("#")[0]).status_code == 200


def test_the_terms_quote_the_configured_shipping_and_returns(client, app):
    app.config.update(FREE_SHIPPING_FROM="99.00", RETURN_WINDOW_DAYS=45)

    html = client.get("/terms").get_data(as_text=True)

    assert "free on orders from $99.00" in html and "within 45 days of delivery" in html


def test_the_cart_shows_how_far_free_shipping_is(client):
    from tests.routes.test_checkout_pages import fill_cart

    fill_cart(client, price="30.00", quantity=2)  # $60 of $75

    html = client.get("/cart").get_data(as_text=True)

    assert "Add <strong>$15.00</strong> more for free standard shipping." in html
    assert '<progress class="free-shipping__bar" max="100" value="80"' in html


def test_a_cart_over_the_threshold_ships_free(client):
    from tests.routes.test_checkout_pages import fill_cart

    fill_cart(client, price="40.00", quantity=2)

    assert "<strong>Free standard shipping</strong> on this order." in client.get("/cart").get_data(as_text=True)


def test_admin_pages_use_the_admin_layout(client):
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token

    make_admin()
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password", "csrf_token": token})

    for path in ("/admin", "/admin/orders", "/admin/products"):
        html = client.get(path).get_data(as_text=True)
        assert 'class="site-header admin-header"' in html, path
        assert (
            'id="assistant-panel"' not in html
            and 'id="compare-tray"' not in html
            and 'aria-label="Departments"' not in html
        )
        assert "View the shop" in html


def test_admin_lists_read_like_a_shop_not_a_database(client):
    from insightshop.extensions import db
    from insightshop.models.orders import PaymentLog
    from insightshop.services import reviews
    from insightshop.services.actors import Actor
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token, make_product

    product = make_product("Named Shirt")
    reviews.save_review(Actor(guest_id="g"), product.id, 4, "Nice", "Pat")
    db.session.add(PaymentLog(provider="stripe", kind="payment", amount=1, status="requires_payment_method"))
    db.session.commit()
    make_admin()
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password", "csrf_token": token})

    assert "Named Shirt" in client.get("/admin/reviews").get_data(as_text=True)
    payments = client.get("/admin/payments").get_data(as_text=True)
    assert "Awaiting card" in payments and "<td>requires_payment_method</td>" not in payments
    for path in (
        "/admin/reviews?product_id=99999999999999999999",
        "/admin/orders?page=99999999999999999999",
        "/admin/products?page=99999999999999999999",
    ):
        assert client.get(path).status_code == 200, path


def test_the_audit_log_shows_each_change_readably_with_filters_and_pages(client):
    from insightshop.extensions import db
    from insightshop.models.audit import AuditEntry
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token

    for index in range(60):
        db.session.add(AuditEntry(actor_label="boss@example.com", action="product.update", target_type="product",
                                  target_id=str(index), before={"price": "10.00", "name": "Tee", "notes": "x" * 500},
                                  after={"price": f"{11 + index}.00", "name": "Tee", "notes": "x" * 500}))  # fmt: skip
    db.session.add(AuditEntry(actor_label="other@example.com", action="order.status", target_type="order", target_id="7",
                              before={"status": "paid"}, after={"status": "shipped"}))  # fmt: skip
    db.session.commit()
    make_admin()
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password", "csrf_token": token})

    first = client.get("/admin/audit?action=product.update").get_data(as_text=True)
    second = client.get("/admin/audit?action=product.update&page=2").get_data(as_text=True)
    by_actor = client.get("/admin/audit?actor=other").get_data(as_text=True)

    assert "60 entries" in first and "Page 1 of 2" in first and "Older →" in first
    assert first.count('class="panel audit-entry"') == 50 and second.count('class="panel audit-entry"') == 10
    assert "<td>price</td>" in first and "<td>name</td>" not in first  # only what changed
    assert "x" * 100 not in first  # long values are shortened
    assert "order.status" in by_actor and "product.update" not in by_actor.split('class="audit-list"')[1]


def test_admin_product_pages_have_previous_next_and_gaps(client, demo_catalog):
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token

    make_admin()
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password", "csrf_token": token})

    html = client.get("/admin/products?page=3&category=men").get_data(as_text=True)
    nav = html[html.index('<nav class="pagination"') :]
    nav = nav[: nav.index("</nav>")]

    assert "← Previous" in nav and 'aria-current="page">3<' in nav and "page=2&amp;category=men" in nav


def test_a_refused_product_says_what_to_fix_once_at_the_field(client):
    from tests.admin_helpers import make_admin
    from tests.factories import csrf_token

    make_admin()
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": "boss@example.com", "password": "an admin password", "csrf_token": token})
    token = csrf_token(client, "/admin/products/new")

    response = client.post("/admin/products/new", data={"name": "Test Tee", "price": "1000000", "category": "men",
                                                        "available_colors": "white", "available_sizes": "M",
                                                        "csrf_token": token})  # fmt: skip

    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert html.count("Enter a price from $0.00 to $100,000.00") == 1
    assert '<div class="field field--error"><label for="price">' in html
    assert "a number from 0 to 100000" not in html and "Please check the highlighted field below." in html


def test_image_links_in_the_cart_have_accessible_names(client):
    import re

    from tests.routes.test_checkout_pages import fill_cart

    fill_cart(client)

    html = client.get("/cart").get_data(as_text=True)
    link = re.search(r'<a [^>]*class="cart-line-image"[^>]*>', html).group(0)
    assert 'aria-label="Oxford Shirt, White / L"' in link


def test_the_product_page_shows_delivery_returns_care_and_fit_from_the_configuration(client, app):
    from tests.factories import make_product

    app.config.update(FREE_SHIPPING_FROM="80.00", RETURN_WINDOW_DAYS=21)
    product = make_product("Linen Camp Shirt", fabric="linen")

    html = client.get(f"/products/{product.id}").get_data(as_text=True)

    assert "free from $80.00" in html and "Free returns within 21 days of delivery." in html
    assert "Machine wash at 30°C, iron while damp." in html and "see the size guide" in html


def test_the_home_page_announces_a_running_sale_and_its_link_lists_only_sale_items(client):
    from datetime import timedelta
    from decimal import Decimal

    from insightshop.extensions import db
    from insightshop.models.sales import Sale
    from insightshop.services import pricing
    from tests.factories import make_product

    assert "sale-banner" not in client.get("/").get_data(as_text=True)  # nothing on sale, no banner
    on_sale, full_price = make_product("Sale Shirt"), make_product("Full Price Shirt", clothing_type="sweater")
    today = pricing.today()
    db.session.add(Sale(name="Winter Sale", discount_percentage=Decimal("25"), is_active=True, clothing_types=["shirt"],
                        start_date=today - timedelta(days=1), end_date=today + timedelta(days=3)))  # fmt: skip
    db.session.commit()

    html = client.get("/").get_data(as_text=True)
    url = re.search(r'<a class="sale-banner" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    listed = client.get(url).get_data(as_text=True)

    assert "Winter Sale: up to 25% off" in html
    assert on_sale.name in listed and full_price.name not in listed
