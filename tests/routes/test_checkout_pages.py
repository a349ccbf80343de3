import io
import re

from pypdf import PdfReader

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.models.orders import Order
from tests.factories import csrf_token, make_product, make_user

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701", "shipping_country": "US"}  # fmt: skip


def fill_cart(client, price="30.00", quantity=2):
    product = make_product("Oxford Shirt", sizes=("L",), stock=5, price=price)
    client.post("/cart/add", data={"product_id": product.id, "quantity": quantity, "size": "L",
                                   "csrf_token": csrf_token(client, f"/products/{product.id}")})  # fmt: skip
    return product


def checkout(client, **changes):
    page = client.get("/checkout").get_data(as_text=True)
    key = re.search(r'name="idempotency_key" type="hidden" value="([0-9a-f]+)"', page).group(1)
    data = {
        **ADDRESS,
        "shipping_method": "standard",
        "idempotency_key": key,
        "csrf_token": csrf_token(client, "/checkout"),
        **changes,
    }
    return client.post("/checkout", data=data), data


def test_checkout_page_quotes_totals_from_the_server(client):
    fill_cart(client, price="30.00")

    html = client.get("/checkout").get_data(as_text=True)

    assert "2 × Oxford Shirt" in html and "$60.00" in html
    assert "$5.95" in html and "$4.80" in html and "$70.75" in html


def test_a_guest_pays_with_the_success_card_and_gets_a_receipt(client):
    fill_cart(client)

    placed, _ = checkout(client)
    pay_page = client.get(placed.location).get_data(as_text=True)
    paid = client.post(
        placed.location, data={"card_number": "4242 4242 4242 4242", "csrf_token": csrf_token(client, placed.location)}
    )
    order = db.session.query(Order).one()
    order_page = client.get(paid.location).get_data(as_text=True)
    receipt = client.get(f"/orders/{order.id}/receipt").get_data(as_text=True)
    pdf = client.get(f"/orders/{order.id}/receipt.pdf")

    assert placed.status_code == 303 and placed.location.endswith(f"/orders/{order.id}/pay")
    assert "Test payments" in pay_page and "Pay $70.75" in pay_page
    assert order.status == "paid" and db.session.query(CartItem).count() == 0
    assert "Payment received" in order_page and "Download receipt (PDF)" in order_page
    assert "INSIGHTSHOP" in receipt and re.search(r"TOTAL USD\s+70\.75", receipt)
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    pdf_text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert f"Order #{order.id}" in pdf_text and "Oxford Shirt" in pdf_text and "Total (USD) $70.75" in pdf_text


def test_a_declined_card_shows_the_reason_and_keeps_the_cart(client):
    fill_cart(client)
    placed, _ = checkout(client)

    declined = client.post(
        placed.location, data={"card_number": "4000000000009995", "csrf_token": csrf_token(client, placed.location)}
    )

    assert declined.status_code == 422
    assert "Your card has insufficient funds." in declined.get_data(as_text=True)
    assert db.session.query(Order).one().status == "pending"
    assert db.session.query(CartItem).count() == 1


def test_resubmitting_the_checkout_form_returns_the_same_order(client):
    fill_cart(client)
    first, data = checkout(client)

    second = client.post("/checkout", data=data)

    assert first.location == second.location
    assert db.session.query(Order).count() == 1


def test_checkout_errors_re_render_the_form(client):
    fill_cart(client)

    response, _ = checkout(client, shipping_zip="", email="not-an-email")

    assert response.status_code == 422
    assert "This field is required." in response.get_data(as_text=True)
    assert db.session.query(Order).count() == 0


def test_someone_elses_order_pages_are_404(client, app):
    fill_cart(client)
    placed, _ = checkout(client)
    order_id = db.session.query(Order).one().id
    stranger = app.test_client()

    for path in (f"/orders/{order_id}", f"/orders/{order_id}/pay", f"/orders/{order_id}/receipt.pdf"):
        assert stranger.get(path).status_code == 404


def test_users_see_their_orders_on_the_account_page(client):
    make_user("sam@example.com")
    client.post(
        "/login",
        data={
            "email": "sam@example.com",
            "password": "correct horse battery",
            "csrf_token": csrf_token(client, "/login"),
        },
    )
    fill_cart(client)
    checkout(client)

    account = client.get("/account").get_data(as_text=True)

    order = db.session.query(Order).one()
    assert f">#{order.id}</a>" in account and "Pending" in account


def test_lookup_by_id_and_email_and_tracking(client):
    fill_cart(client)
    checkout(client)
    order = db.session.query(Order).one()
    order.tracking_number, order.carrier = "TRACK123456", "DHL"
    db.session.commit()
    token = csrf_token(client, "/orders/lookup")

    found = client.post("/orders/lookup", data={"order_id": order.id, "email": "sam@example.com", "csrf_token": token})
    wrong = client.post("/orders/lookup", data={"order_id": order.id, "email": "eve@example.com", "csrf_token": token})
    tracked = client.get("/orders/track?tracking_number=TRACK123456")

    assert found.status_code == 303 and found.headers["Location"].endswith(f"/orders/{order.id}")
    assert wrong.status_code == 404 and "No order matches" in wrong.get_data(as_text=True)
    assert "DHL" in tracked.get_data(as_text=True) and "Order placed" in tracked.get_data(as_text=True)


def test_phone_keyboards_and_autofill_for_the_address_and_the_card(client):
    fill_cart(client)
    page = client.get("/checkout").get_data(as_text=True)
    assert re.search(r'<input[^>]*autocomplete="postal-code"[^>]*inputmode="numeric"|'
                     r'<input[^>]*inputmode="numeric"[^>]*autocomplete="postal-code"', page)  # fmt: skip
    assert re.search(r'<input[^>]*name="shipping_phone"[^>]*type="tel"|<input[^>]*type="tel"[^>]*name="shipping_phone"',
                     page)  # fmt: skip
    placed, _ = checkout(client)
    pay = client.get(placed.location).get_data(as_text=True)
    for name, autofill in (("card_number", "cc-number"), ("expiry", "cc-exp"), ("cvc", "cc-csc")):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', pay).group(0)
        assert 'inputmode="numeric"' in tag and f'autocomplete="{autofill}"' in tag, tag


def test_the_checkout_summary_comes_with_its_lines_folding_away(client):
    fill_cart(client)
    page = client.get("/checkout").get_data(as_text=True)
    assert '<details class="summary-lines" open>' in page and "<summary>2 items</summary>" in page
