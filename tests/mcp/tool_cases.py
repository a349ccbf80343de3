"""For every tool: a valid call (after `setup` creates what it needs), a schema violation, and the permission level."""

from datetime import timedelta

from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.models.orders import Order
from insightshop.models.receipts import Receipt
from insightshop.services import cart, orders, pricing
from insightshop.services.actors import Actor
from tests.factories import make_product, make_user

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam", "shipping_address": "1 Main St", "shipping_city": "Springfield",
           "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip


def shop():
    """A small catalog: a white men's shirt (id 1), a navy one (id 2), a reviewable dress (id 3)."""
    white = make_product(
        "Oxford Shirt", colors=("white",), sizes=("M", "L"), stock=9, price="40.00", category="men", rating="4.5"
    )
    navy = make_product(
        "Oxford Shirt", color="navy", sizes=("M", "L"), stock=9, price="40.00", category="men", rating="4.0"
    )
    dress = make_product("Wrap Dress", clothing_type="dress", color="red", sizes=("S",), stock=3, category="women")
    return white, navy, dress


def put_in_cart(actor):
    cart.add_item(actor, 1, 1, "white", "L")


def shipped_order():
    from insightshop.services.accounts import find_user_by_email

    buyer = Actor(user=find_user_by_email("buyer@example.com") or make_user("buyer@example.com"))
    cart.add_item(buyer, 2, 1, "navy", "M")
    order = orders.place_order(buyer, orders.ShippingDetails(**{**ADDRESS, "email": "buyer@example.com"}))
    order.tracking_number, order.carrier = f"1Z999{order.id}", "UPS"
    db.session.commit()
    return order


def own_receipt_id() -> int:
    """A paid order of the admin (the caller of the tool matrices) adds a receipt of theirs."""
    from insightshop.services.accounts import find_user_by_email
    from tests.factories import make_paid_order

    order = make_paid_order(Actor(user=find_user_by_email("boss@example.com")), db.session.get(Product, 1))
    return db.session.query(Receipt.id).filter_by(order_id=order.id).scalar()


def review_id():
    from insightshop.services import reviews

    review, _ = reviews.save_review(Actor(guest_id="tool-guest"), 3, 2, "meh", user_name="G")
    return review.id


# name → (permission, build valid arguments (may set up data), a schema-violating argument set)
CASES = {
    "auth_login": (
        "public",
        lambda: (make_user("login@example.com"), {"email": "login@example.com", "password": "correct horse battery"})[
            1
        ],
        {"email": "not-an-email", "password": "x"},
    ),
    "auth_logout": ("public", lambda: {}, {"everything": True}),
    "search_products": (
        "public",
        lambda: {"query": "white shirt", "category": "men", "size": "L", "max_price": 100, "sort_by": "rating"},
        {"sort_by": "cheapest"},
    ),
    "cart_add_item": (
        "user",
        lambda: {
            "clothing_type": "shirt",
            "selected_color": "white",
            "selected_size": "large",
            "quantity": 2,
            "category": "men",
        },
        {"product_id": 1, "quantity": 11},
    ),
    "cart_remove_item": ("user", lambda: {"product_id": 1}, {"product_id": 0}),
    "cart_show": ("user", lambda: {}, {"page": 2}),
    "cart_clear": ("user", lambda: {}, {"all": True}),
    "compare_products": ("public", lambda: {"product_ids": [1, 2]}, {"product_ids": [1]}),
    "review_create": (
        "user",
        lambda: {"product_id": 3, "rating": 4, "comment": "Lovely", "user_name": "Gina"},
        {"product_id": 3, "rating": 6},
    ),
    "checkout_proceed": ("user", lambda: dict(ADDRESS), {**ADDRESS, "email": "nope"}),
    "order_status": (
        "public",
        lambda: {"order_id": shipped_order().id, "email": "buyer@example.com"},
        {"order_id": "1", "email": "a@b.co"},
    ),
    "order_track": ("public", lambda: {"tracking_number": shipped_order().tracking_number}, {"tracking_number": ""}),
    "admin_product_create": (
        "admin",
        lambda: {
            "name": "Linen Camp Shirt",
            "price": 45,
            "category": "men",
            "color": "beige",
            "available_sizes": ["M", "L"],
            "stock_quantity": 3,
        },
        {"name": "X", "price": -5, "category": "men"},
    ),
    "admin_product_update": ("admin", lambda: {"product_id": 2, "price": 35.5}, {"product_id": 2, "category": "pets"}),
    "admin_product_delete": ("admin", lambda: {"product_id": 3}, {"product_id": "three"}),
    "admin_orders_list": ("admin", lambda: {"status": "pending", "per_page": 5}, {"per_page": 500}),
    "admin_order_update_status": (
        "admin",
        lambda: {"order_id": shipped_order().id, "status": "cancelled"},
        {"order_id": 1, "status": "lost"},
    ),
    "admin_sale_create": (
        "admin",
        lambda: {
            "name": "Week",
            "discount_percentage": 10,
            "start_date": pricing.today().isoformat(),
            "end_date": (pricing.today() + timedelta(days=7)).isoformat(),
        },
        {"name": "Week", "discount_percentage": 10, "start_date": "27/11/2026", "end_date": "2026-12-01"},
    ),
    "admin_sale_run_automation": ("admin", lambda: {}, {"now": True}),
    "admin_cart_clear_user": ("admin", lambda: {"user_id": make_user("cartowner@example.com").id}, {"user_id": 0}),
    "admin_review_delete": ("admin", lambda: {"review_id": review_id()}, {"review_id": -1}),
    "suggest_outfit": ("public", lambda: {"product_id": 1}, {"product_id": 0, "limit": 20}),
    "search_shop_policies_and_faqs": (
        "public",
        lambda: {"query": "how much is shipping?", "context": "a dress"},
        {"query": ""},
    ),
    "orders_list_mine": ("user", lambda: {"limit": 3}, {"limit": 0}),
    "admin_dashboard": ("admin", lambda: {"period": "month", "low_stock_threshold": 3}, {"period": "decade"}),
    "categorize_item": ("user", lambda: {"item_name": "Chicken Breast"}, {"item_name": ""}),
    "estimate_expiration_date": (
        "user",
        lambda: {"item_name": "Milk 1L", "purchase_date": pricing.today().isoformat()},
        {"item_name": "Milk 1L", "purchase_date": "10/01/2026"},
    ),
    "search_documents": ("user", lambda: {"query": "receipts over $10", "citation_format": "short"},
                         {"citation_format": "mla"}),
    "get_field_provenance": ("user", lambda: {"document_id": own_receipt_id(), "field_name": "total_amount"},
                             {"document_id": 2147483648, "field_name": "total_amount"}),
    "aggregate_with_citations": ("user", lambda: {"operation": "sum", "field": "total_amount"}, {"operation": "median"}),
    "admin_stock_read": ("admin", lambda: {"product_ids": [1], "size": "M"}, {"product_ids": []}),
    "admin_stock_change": ("admin", lambda: {"product_id": 1, "change": 2, "size": "M"}, {"product_id": 1, "change": 0}),
    "admin_stock_report": ("admin", lambda: {"threshold": 3}, {"threshold": -1}),
    "admin_price_change": ("admin", lambda: {"product_ids": [1, 2], "percent": -10}, {"product_ids": [1], "percent": -100}),
    "admin_sales_report": ("admin", lambda: {"period": "week", "compare": True, "group_by": "department"},
                           {"period": "decade"}),
    "admin_products_find": ("admin", lambda: {"sort": "price_desc", "limit": 1}, {"sort": "random"}),
    "receipts_spending": ("user", lambda: {"item": "coffee", "date_from": "2026-01-01", "group_by": "merchant"},
                          {"group_by": "weekday"}),
    "receipts_extreme": ("user", lambda: {"which": "largest", "merchant": "Starbucks"}, {"which": "median"}),
    "receipts_compare": ("user", lambda: {"periods": [{"date_from": "2026-04-01", "date_to": "2026-04-30"},
                                                      {"date_from": "2026-03-01", "date_to": "2026-03-31"}]},
                         {"periods": [{"date_from": "2026-04-01", "date_to": "2026-04-30"}]}),
    "order_cancel_mine": ("user", lambda: {"order_id": 1}, {"order_id": 0}),
    "order_refund_status": ("user", lambda: {}, {"order_id": "latest"}),
    "order_return_eligibility": ("user", lambda: {"order_id": 2}, {"order_id": -1}),
}  # fmt: skip


def order_count() -> int:
    return db.session.query(Order).count()


# Arguments that satisfy each schema without any data behind them (for the registry's own checks).
STATIC_VALID = {
    "auth_login": {"email": "a@example.com", "password": "x"},
    "compare_products": {"product_ids": [1, 2]},
    "review_create": {"product_id": 1, "rating": 4},
    "checkout_proceed": ADDRESS,
    "order_status": {"order_id": 1, "email": "a@example.com"},
    "order_track": {"tracking_number": "X1"},
    "admin_product_create": {"name": "Oxford Shirt", "price": 1, "category": "men"},
    "admin_product_update": {"product_id": 1},
    "admin_product_delete": {"product_id": 1},
    "admin_order_update_status": {"order_id": 1, "status": "shipped"},
    "admin_sale_create": {
        "name": "Week",
        "discount_percentage": 5,
        "start_date": "2030-01-01",
        "end_date": "2030-01-08",
    },
    "admin_cart_clear_user": {"user_id": 1},
    "admin_review_delete": {"review_id": 1},
    "search_shop_policies_and_faqs": {"query": "returns"},
    "categorize_item": {"item_name": "MILO"},
    "estimate_expiration_date": {"item_name": "MILO", "purchase_date": "2026-01-10"},
    "search_documents": {"query": "receipts over $100 in October"},
    "get_field_provenance": {"document_id": 1, "field_name": "items.1.total_price"},
    "aggregate_with_citations": {"operation": "avg", "field": "item_total_price"},
    "admin_stock_change": {"product_id": 1, "change": 1},
    "admin_price_change": {"product_ids": [1], "percent": 5},
    "receipts_extreme": {"which": "smallest"},
    "receipts_compare": {
        "periods": [
            {"date_from": "2026-02-01", "date_to": "2026-02-28"},
            {"date_from": "2026-01-01", "date_to": "2026-01-31"},
        ]
    },  # fmt: skip
}
