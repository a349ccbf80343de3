from datetime import timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.accounts import ApiToken, User
from insightshop.models.audit import AuditEntry
from insightshop.models.catalog import Product, ProductVariant
from insightshop.models.orders import PaymentLog
from insightshop.models.sales import Sale
from insightshop.services import cart, orders, pricing
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from tests.admin_helpers import make_admin
from tests.api.test_products_api import assert_error
from tests.factories import bearer, make_product, make_user
from tests.services.test_orders import details


@pytest.fixture
def boss(client):
    make_admin()
    return bearer(client, "boss@example.com", "an admin password")


def test_create_product_from_the_seed_fields_builds_variants(client, boss):
    response = client.post("/api/admin/products", headers=boss, json={
        "name": "Harbour Rain Jacket", "price": 89.5, "category": "women", "available_colors": ["navy", "Yellow"],
        "available_sizes": ["S", "medium", "L"], "stock_quantity": 4, "description": "Fully taped seams."})  # fmt: skip

    product = response.get_json()["product"]
    assert response.status_code == 201
    assert (product["clothing_type"], product["color"], product["price"]) == ("jacket", "navy", "89.50")
    assert product["available_colors"] == ["navy", "yellow"] and product["available_sizes"] == ["S", "M", "L"]
    assert len(product["variants"]) == 6 and {v["stock"] for v in product["variants"]} == {4}
    assert client.get(f"/api/products/{product['id']}").status_code == 200
    entry = db.session.query(AuditEntry).filter_by(action="product.create").one()
    assert entry.actor_label == "boss@example.com" and entry.after["name"] == "Harbour Rain Jacket"


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "Thing", "price": 10, "category": "men", "color": "white"}, "clothing_type"),
    ({"name": "Oxford Shirt", "price": -1, "category": "men", "color": "white"}, "price"),
    ({"name": "Oxford Shirt", "price": 10, "category": "pets", "color": "white"}, "category"),
    ({"name": "Oxford Shirt", "price": 10, "category": "men", "color": "chartreuse"}, "available_colors"),
    ({"name": "Oxford Shirt", "price": 10, "category": "men"}, "color"),
    ({"name": "Oxford Shirt", "price": 10, "category": "men", "color": "white", "rating": 5}, "rating"),
])  # fmt: skip
def test_create_product_rejects_bad_input(client, boss, body, field):
    assert_error(client.post("/api/admin/products", headers=boss, json=body), 400, "validation_error", field)
    assert db.session.query(Product).count() == 0


def test_update_adds_sizes_sets_stock_and_is_audited(client, boss):
    product = make_product("Oxford Shirt", sizes=("M",), stock=2, price="50.00")

    response = client.put(f"/api/admin/products/{product.id}", headers=boss,
                          json={"available_sizes": ["M", "XL"], "stock_quantity": 7, "price": 45})  # fmt: skip

    body = response.get_json()["product"]
    assert body["available_sizes"] == ["M", "XL"] and body["price"] == "45.00"
    assert {v["stock"] for v in body["variants"]} == {7}
    entry = db.session.query(AuditEntry).filter_by(action="product.update").one()
    assert entry.before["price"] == "50.00" and entry.after["price"] == "45.00"


def test_soft_delete_restore_and_variant_stock(client, boss):
    product = make_product(sizes=("L",), stock=1)
    variant_id = product.variants[0].id

    client.delete(f"/api/admin/products/{product.id}", headers=boss)
    assert client.get(f"/api/products/{product.id}").status_code == 404
    client.post(f"/api/admin/products/{product.id}/restore", headers=boss)
    updated = client.put(f"/api/admin/products/{product.id}/variants/{variant_id}", headers=boss, json={"stock": 12})

    assert client.get(f"/api/products/{product.id}").status_code == 200
    assert updated.get_json()["variant"]["stock"] == 12
    assert_error(client.put(f"/api/admin/products/{product.id}/variants/{variant_id}", headers=boss, json={"stock": -1}),
                 400, "validation_error", "stock")  # fmt: skip
    assert_error(
        client.put(f"/api/admin/products/{product.id}/variants/999", headers=boss, json={"stock": 1}), 404, "not_found"
    )


@pytest.fixture
def paid_order(app):
    shopper = Actor(user=make_user("buyer@example.com"))
    shirt = make_product("Oxford Shirt", sizes=("L",), stock=5, price="20.00")
    cart.add_item(shopper, shirt.id, 2)
    order = orders.place_order(shopper, details(email="buyer@example.com"))
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")
    return order, shirt


def test_orders_list_filters_and_status_transitions(client, boss, paid_order):
    order, shirt = paid_order

    invalid = client.put(f"/api/admin/orders/{order.id}/status", headers=boss, json={"status": "pending"})
    no_tracking = client.put(f"/api/admin/orders/{order.id}/status", headers=boss, json={"status": "shipped"})
    shipped = client.put(f"/api/admin/orders/{order.id}/status", headers=boss,
                         json={"status": "shipped", "carrier": "UPS", "tracking_number": "1Z999"})  # fmt: skip

    assert [
        o["id"] for o in client.get("/api/admin/orders?status=shipped&search=buyer@", headers=boss).get_json()["orders"]
    ] == [order.id]
    assert client.get("/api/admin/orders?status=paid", headers=boss).get_json()["orders"] == []
    assert_error(invalid, 409, "invalid_transition")
    assert_error(no_tracking, 400, "validation_error", "tracking_number")
    assert (
        shipped.get_json()["order"]["status"] == "shipped" and shipped.get_json()["order"]["tracking_number"] == "1Z999"
    )
    assert_error(client.get("/api/admin/orders?status=lost", headers=boss), 400, "validation_error", "status")
    assert_error(client.get("/api/admin/orders?per_page=1000", headers=boss), 400, "validation_error", "per_page")


def test_cancelling_a_paid_order_restocks_and_refunds(client, boss, paid_order):
    order, shirt = paid_order

    response = client.put(f"/api/admin/orders/{order.id}/status", headers=boss, json={"status": "cancelled"})

    assert response.get_json()["order"]["status"] == "cancelled"
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 5
    refund = db.session.query(PaymentLog).filter_by(kind="refund").one()
    assert refund.amount == order.total


def test_sales_create_preview_automation_and_pricing(client, boss):
    make_product("Oxford Shirt", price="50.00", category="men")
    make_product("Wrap Dress", clothing_type="dress", price="80.00", category="women")
    today = pricing.today()

    bad = client.post("/api/admin/sales", headers=boss, json={"name": "Backwards", "discount_percentage": 10,
                      "start_date": today.isoformat(), "end_date": (today - timedelta(days=1)).isoformat()})  # fmt: skip
    created = client.post("/api/admin/sales", headers=boss, json={"name": "Menswear week", "discount_percentage": 20,
                          "start_date": today.isoformat(), "end_date": (today + timedelta(days=6)).isoformat(),
                          "is_active": True, "categories": ["men"]})  # fmt: skip
    sale = created.get_json()["sale"]
    preview = client.get(f"/api/admin/sales/{sale['id']}/preview", headers=boss).get_json()
    automation = client.post("/api/admin/sales/run-automation", headers=boss).get_json()

    assert_error(bad, 400, "validation_error", "end_date")
    assert created.status_code == 201
    assert preview["products_covered"] == 1 and preview["sample"][0]["sale_price"] == "40.00"
    assert any("Black Friday" in name or "New Year" in name for name in automation["created"])
    # The biggest discount running today wins: the menswear 20%, unless a holiday sale the automation just started
    # (Black Friday's 30% on 27–29 November) covers the shirt too.
    running = db.session.query(Sale).filter(Sale.is_active, Sale.start_date <= today, Sale.end_date >= today).all()
    best = max(sale.discount_percentage for sale in running if not sale.categories or "men" in sale.categories)
    expected = pricing.quantize(Decimal("50.00") * (100 - best) / 100)
    assert best >= 20
    assert client.get("/api/products?q=oxford").get_json()["products"][0]["price"] == str(expected)
    assert_error(client.post("/api/admin/sales", headers=boss, json={"name": "x", "discount_percentage": 120,
                 "start_date": "2026-01-01", "end_date": "2026-01-02"}), 400, "validation_error", "discount_percentage")  # fmt: skip


def test_carts_reviews_and_ratings(client, boss):
    user = make_user("cart@example.com")
    product = make_product(sizes=("L",), rating="0.0", rating_count=0)
    cart.add_item(Actor(user=user), product.id, 2)
    from insightshop.services import reviews

    keep, _ = reviews.save_review(Actor(user=user), product.id, 5, "Great")
    spam, _ = reviews.save_review(Actor(guest_id="spammer"), product.id, 1, "buy cheap watches", user_name="spam")

    carts = client.get("/api/admin/carts", headers=boss).get_json()["carts"]
    cleared = client.delete(f"/api/admin/carts/user/{user.id}", headers=boss).get_json()
    found = client.get("/api/admin/reviews?text=watches", headers=boss).get_json()["reviews"]
    client.delete(f"/api/admin/reviews/{spam.id}", headers=boss)

    assert carts[0]["owner"] == "cart@example.com" and carts[0]["units"] == 2
    assert cleared == {"removed": 1}
    assert [r["id"] for r in found] == [spam.id]
    db.session.expire_all()
    # neither review is a verified purchase (the user has not paid for it), so neither counts
    assert (db.session.get(Product, product.id).rating, db.session.get(Product, product.id).rating_count) == (
        Decimal("0.0"),
        0,
    )
    assert_error(client.delete("/api/admin/carts/user/999", headers=boss), 404, "not_found")


def test_roles_need_a_superadmin_and_the_last_superadmin_stays(client, boss):
    plain_admin = make_admin("helper@example.com", superadmin=False)
    customer = make_user("c@example.com")
    helper = bearer(client, "helper@example.com", "an admin password")
    me = db.session.query(User).filter_by(email="boss@example.com").one()

    assert_error(
        client.put(f"/api/admin/users/{customer.id}/role", headers=helper, json={"is_admin": True}), 403, "forbidden"
    )
    promoted = client.put(f"/api/admin/users/{customer.id}/role", headers=boss, json={"is_admin": True})
    demote_self = client.put(
        f"/api/admin/users/{me.id}/role", headers=boss, json={"is_admin": True, "is_superadmin": False}
    )

    assert promoted.get_json()["user"]["is_admin"] is True
    assert_error(demote_self, 409, "last_superadmin")
    assert plain_admin.is_admin


def test_disabling_a_user_revokes_their_tokens(client, boss):
    make_user("c@example.com")
    customer_headers = bearer(client, "c@example.com")
    customer = db.session.query(User).filter_by(email="c@example.com").one()

    client.put(f"/api/admin/users/{customer.id}/disabled", headers=boss, json={"disabled": True})

    assert_error(client.get("/api/auth/me", headers=customer_headers), 401, "token_revoked")
    assert (
        db.session.query(ApiToken).filter(ApiToken.user_id == customer.id, ApiToken.revoked_at.is_(None)).count() == 0
    )
    assert_error(
        client.post("/api/auth/login", json={"email": "c@example.com", "password": "correct horse battery"}),
        401,
        "unauthorized",
    )


def test_payments_returns_dashboard_and_audit(client, boss, paid_order):
    order, _ = paid_order
    for status in ("processing", "shipped", "delivered"):
        orders.set_status(order, status, actor_label="test")
    from insightshop.services import returns

    buyer = Actor(user=db.session.query(User).filter_by(email="buyer@example.com").one())
    request = returns.request_return(
        buyer, order.id, [{"order_item_id": order.items[0].id, "quantity": 1, "reason": "Too big"}]
    )

    payments = client.get(f"/api/admin/payments?order_id={order.id}&status=succeeded", headers=boss).get_json()[
        "payments"
    ]
    decided = client.post(f"/api/admin/returns/{request.id}/decision", headers=boss, json={"approve": True}).get_json()
    again = client.post(f"/api/admin/returns/{request.id}/decision", headers=boss, json={"approve": False})
    board = client.get("/api/admin/dashboard?days=7", headers=boss).get_json()
    log = client.get("/api/admin/audit", headers=boss).get_json()["entries"]

    assert [p["card_last4"] for p in payments] == ["4242"]
    assert decided["return"]["status"] == "approved" and decided["return"]["refund_amount"] == "21.60"
    assert_error(again, 409, "invalid_transition")
    assert (
        board["revenue_by_day"][-1]["revenue"] == f"{order.total:.2f}" and board["orders_by_status"]["delivered"] == 1
    )
    assert board["top_products"][0] == {"name": "Oxford Shirt", "units": 2, "revenue": "40.00"}
    assert log[0]["action"] == "return.approve"
    assert_error(client.get("/api/admin/dashboard?days=2", headers=boss), 400, "validation_error", "days")


def test_update_sale_keeps_the_window_rules(client, boss):
    today = pricing.today()
    sale = client.post("/api/admin/sales", headers=boss, json={"name": "Week", "discount_percentage": 10, "start_date": today.isoformat(),
                       "end_date": (today + timedelta(days=7)).isoformat()}).get_json()["sale"]  # fmt: skip

    changed = client.put(
        f"/api/admin/sales/{sale['id']}", headers=boss, json={"discount_percentage": 15, "name": "Big week"}
    )
    backwards = client.put(
        f"/api/admin/sales/{sale['id']}", headers=boss, json={"end_date": (today - timedelta(days=3)).isoformat()}
    )

    assert (changed.get_json()["sale"]["discount_percentage"], changed.get_json()["sale"]["name"]) == (15.0, "Big week")
    assert_error(backwards, 400, "validation_error", "end_date")
