import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product, ProductVariant
from insightshop.models.sales import Sale
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from tests.admin_helpers import make_admin
from tests.factories import csrf_token, make_product, make_user
from tests.services.test_orders import details


@pytest.fixture
def admin_client(client):
    make_admin()
    client.post(
        "/login",
        data={"email": "boss@example.com", "password": "an admin password", "csrf_token": csrf_token(client, "/login")},
    )
    return client


def test_dashboard_shows_charts_and_numbers(admin_client):
    shopper = Actor(user=make_user())
    product = make_product("Oxford Shirt", sizes=("L",), stock=2, price="50.00")
    cart.add_item(shopper, product.id, 1)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")

    html = admin_client.get("/admin").get_data(as_text=True)
    ninety = admin_client.get("/admin?days=90").get_data(as_text=True)

    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and "Revenue per day, last 30 days" in html
    assert f"{order.total:.2f}" in html and "Oxford Shirt" in html
    assert "Revenue per day, last 90 days" in ninety
    assert "<script" not in html.split("</head>")[1]


def test_an_empty_dashboard_says_so_instead_of_showing_bare_tables(admin_client):
    make_product("Oxford Shirt", sizes=("L",), stock=40, price="50.00")

    html = admin_client.get("/admin").get_data(as_text=True)

    assert "No paid orders in the last 30 days." in html
    assert "Every variant is well stocked." in html
    assert "No sales yet." in html

    nothing = admin_client.get("/admin/products?search=zzzz", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "0 products" in nothing and "No products match these filters." in nothing
    one = admin_client.get("/admin/products?search=oxford", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert ">1 product</p>" in one


def test_product_list_filters_as_an_htmx_fragment(admin_client):
    make_product("Oxford Shirt", category="men")
    make_product("Wrap Dress", clothing_type="dress", category="women", is_active=False)

    fragment = admin_client.get("/admin/products?category=women&status=all", headers={"HX-Request": "true"}).get_data(
        as_text=True
    )

    assert (
        fragment.lstrip().startswith('<div id="product-table"')
        and "Wrap Dress" in fragment
        and "Oxford Shirt" not in fragment
    )
    assert "Hidden" in fragment and "Restore" in fragment


def test_new_product_form_validates_then_creates(admin_client):
    token = csrf_token(admin_client, "/admin/products/new")
    bad = admin_client.post(
        "/admin/products/new", data={"name": "Mystery", "price": "12", "category": "men", "csrf_token": token}
    )
    good = admin_client.post("/admin/products/new", data={"name": "Linen Camp Shirt", "price": "45.00", "category": "men",
                             "available_colors": ["beige", "white"], "available_sizes": ["M", "L"], "stock_quantity": "3",
                             "is_active": "1", "csrf_token": token})  # fmt: skip

    assert bad.status_code == 422 and "could not tell from the name" in bad.get_data(as_text=True)
    product = db.session.query(Product).one()
    assert good.status_code == 303 and product.clothing_type == "shirt" and len(product.variants) == 4


def test_inline_stock_edit_swaps_only_the_row(admin_client):
    product = make_product(sizes=("L",), stock=1)
    variant = product.variants[0]
    token = csrf_token(admin_client, f"/admin/products/{product.id}")

    saved = admin_client.post(f"/admin/products/{product.id}/variants/{variant.id}", data={"stock": "25", "csrf_token": token},
                              headers={"HX-Request": "true"})  # fmt: skip
    refused = admin_client.post(f"/admin/products/{product.id}/variants/{variant.id}", data={"stock": "-4", "csrf_token": token},
                                headers={"HX-Request": "true"})  # fmt: skip

    assert saved.get_data(as_text=True).lstrip().startswith(
        f'<tr id="variant-{variant.id}"'
    ) and "Saved" in saved.get_data(as_text=True)
    assert refused.status_code == 422 and "0 to 100000" in refused.get_data(as_text=True)
    assert db.session.get(ProductVariant, variant.id).stock == 25


def test_order_status_form_and_invalid_transition_message(admin_client):
    shopper = Actor(user=make_user())
    product = make_product(sizes=("L",))
    cart.add_item(shopper, product.id, 1)
    order = orders.place_order(shopper, details())
    token = csrf_token(admin_client, f"/admin/orders/{order.id}")

    refused = admin_client.post(
        f"/admin/orders/{order.id}/status", data={"status": "delivered", "csrf_token": token}, follow_redirects=True
    )
    cancelled = admin_client.post(
        f"/admin/orders/{order.id}/status", data={"status": "cancelled", "csrf_token": token}, follow_redirects=True
    )

    assert "cannot go from pending to delivered" in refused.get_data(as_text=True)
    assert f"Order #{order.id} is now cancelled." in cancelled.get_data(as_text=True)


def test_a_final_order_shows_no_status_form_and_an_open_one_offers_only_its_next_statuses(admin_client):
    shopper = Actor(user=make_user())
    product = make_product(sizes=("L",))
    cart.add_item(shopper, product.id, 1)
    order = orders.place_order(shopper, details())

    open_page = admin_client.get(f"/admin/orders/{order.id}").get_data(as_text=True)
    assert '<option value="paid">' in open_page and '<option value="cancelled">' in open_page
    assert '<option value="delivered">' not in open_page and "can no longer change" not in open_page

    token = csrf_token(admin_client, f"/admin/orders/{order.id}")
    admin_client.post(f"/admin/orders/{order.id}/status", data={"status": "cancelled", "csrf_token": token})
    final_page = admin_client.get(f"/admin/orders/{order.id}").get_data(as_text=True)
    assert (
        'name="status"' not in final_page
        and "Cancelled is final: this order's status can no longer change." in final_page
    )


def test_sales_page_creates_a_sale_and_runs_automation(admin_client):
    token = csrf_token(admin_client, "/admin/sales")

    missing = admin_client.post("/admin/sales", data={"name": "Half", "csrf_token": token})
    made = admin_client.post("/admin/sales", data={"name": "Spring clean", "discount_percentage": "15", "start_date": "2030-03-01",
                             "end_date": "2030-03-10", "categories": ["kids"], "csrf_token": token})  # fmt: skip
    automated = admin_client.post("/admin/sales/run-automation", data={"csrf_token": token}, follow_redirects=True)

    assert missing.status_code == 422 and "Discount percentage is required" in missing.get_data(as_text=True)
    assert made.status_code == 303 and db.session.query(Sale).filter_by(name="Spring clean").one().categories == [
        "kids"
    ]
    assert "Automation ran" in automated.get_data(as_text=True)


def test_users_page_and_audit_log(admin_client):
    customer = make_user("c@example.com")
    token = csrf_token(admin_client, "/admin/users")

    page = admin_client.get("/admin/users").get_data(as_text=True)
    admin_client.post(f"/admin/users/{customer.id}/role", data={"role": "admin", "csrf_token": token})
    audit = admin_client.get("/admin/audit").get_data(as_text=True)

    assert 'aria-label="Role of c@example.com"' in page
    assert "user.role" in audit and "<td>is_admin</td>" in audit and '<td class="code">true</td>' in audit


def test_people_pages_clear_carts_delete_reviews_disable_users_and_send_resets(admin_client):
    from insightshop.models.accounts import User
    from insightshop.models.cart import CartItem
    from insightshop.models.reviews import Review
    from insightshop.services import reviews
    from insightshop.services.mail import list_outbox

    customer = make_user("c@example.com")
    product = make_product(sizes=("L",))
    cart.add_item(Actor(user=customer), product.id, 1)
    review, _ = reviews.save_review(Actor(guest_id="bot"), product.id, 1, "spam spam", user_name="bot")
    token = csrf_token(admin_client, "/admin/carts")

    carts_page = admin_client.get("/admin/carts").get_data(as_text=True)
    admin_client.post(f"/admin/carts/user/{customer.id}/clear", data={"csrf_token": token})
    listed = admin_client.get("/admin/reviews?text=spam", headers={"HX-Request": "true"}).get_data(as_text=True)
    admin_client.post(f"/admin/reviews/{review.id}/delete", data={"csrf_token": token})
    admin_client.post(f"/admin/users/{customer.id}/disabled", data={"disabled": "1", "csrf_token": token})
    admin_client.post(f"/admin/users/{customer.id}/password-reset", data={"csrf_token": token})

    assert "c@example.com" in carts_page
    assert db.session.query(CartItem).count() == 0
    assert listed.lstrip().startswith('<div id="review-table"') and "spam spam" in listed
    assert db.session.query(Review).count() == 0
    assert db.session.get(User, customer.id).is_disabled
    assert list_outbox()[0].to == "c@example.com"


def test_payments_and_returns_pages(admin_client):
    from insightshop.models.orders import ReturnRequest
    from insightshop.services import returns

    shopper = Actor(user=make_user())
    product = make_product("Oxford Shirt", sizes=("L",), stock=3, price="20.00")
    cart.add_item(shopper, product.id, 1)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")
    for status in ("shipped", "delivered"):
        if status == "shipped":
            order.carrier, order.tracking_number = "UPS", "T1"
        orders.set_status(order, status, actor_label="test")
    request = returns.request_return(
        shopper, order.id, [{"order_item_id": order.items[0].id, "quantity": 1, "reason": "Too small"}]
    )
    token = csrf_token(admin_client, "/admin/returns")

    payments = admin_client.get("/admin/payments?provider=offline&status=succeeded").get_data(as_text=True)
    page = admin_client.get("/admin/returns").get_data(as_text=True)
    admin_client.post(f"/admin/returns/{request.id}", data={"approve": "0", "note": "Worn", "csrf_token": token})

    assert "visa •••• 4242" in payments
    assert "Too small" in page and "Approve" in page
    assert db.session.get(ReturnRequest, request.id).status == "rejected"


def test_counts_take_the_right_number_of_their_noun():
    from insightshop.web.filters import counted

    assert [counted(0, "receipt"), counted(1, "receipt"), counted(1234, "receipt")] == [
        "0 receipts", "1 receipt", "1,234 receipts"]  # fmt: skip
    assert [counted(1, "entry", "entries"), counted(2, "entry", "entries")] == ["1 entry", "2 entries"]
