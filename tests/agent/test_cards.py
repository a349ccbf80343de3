"""Every tool's result card renders, and nothing from a model or a review runs as HTML."""

from flask import render_template_string

from insightshop.agent import cards
from insightshop.web.filters import chat_text

PRODUCT = {"id": 1, "name": "Oxford <Shirt>", "price": "40.00", "list_price": "50.00", "on_sale": True, "image_url": "/i.svg",
           "url": "/products/1", "category": "men", "color": "white", "in_stock": True, "fabric": "cotton", "rating": 4.5,
           "available_sizes": ["M", "L"]}  # fmt: skip
CART = {"cart": {"items": [{"quantity": 2, "name": "Oxford Shirt", "color": "white", "size": "L", "line_total": "80.00"}],
                 "item_count": 2, "subtotal": "80.00"}}  # fmt: skip
RESULTS = {
    "search_products": (
        {"products": [PRODUCT], "pagination": {"total": 9}},
        ["Add to cart", "9 matches in all", "$40.00", "$50.00"],
    ),
    "cart_add_item": (CART | {"added": []}, ["Your cart", "2 × Oxford Shirt", "$80.00"]),
    "cart_show": (CART, ["Subtotal"]),
    "cart_remove_item": (CART | {"removed": {}}, ["Your cart"]),
    "cart_clear": ({"cart": {"items": [], "item_count": 0, "subtotal": "0.00"}, "removed_lines": 1}, ["Empty."]),
    "compare_products": ({"products": [PRODUCT, PRODUCT | {"id": 2, "price": "30.00"}]}, ["Fabric", "$30.00"]),
    "review_create": (
        {"review": {"rating": 5, "comment": "<img src=x onerror=alert(1)>"}, "created": True},
        ["Review posted", "★★★★★"],
    ),
    "checkout_proceed": (
        {"order": {"id": 7, "status": "pending", "total": "80.00"}, "payment": {"pay_url": "/orders/7/pay"}},
        ["Order #7", "Pay now"],
    ),
    "order_status": ({"order": {"id": 7, "status": "paid", "total": "80.00"}}, ["Order #7 · Paid"]),
    "order_track": (
        {"shipment": {"carrier": "UPS", "tracking_number": "1Z9", "events": [{"status": "shipped", "note": "Left"}]}},
        ["UPS · 1Z9", "shipped — Left"],
    ),
    "admin_orders_list": ({"orders": [{"id": 7, "status": "paid", "total": "80.00"}], "pagination": {}}, ["#7"]),
    "admin_product_create": ({"product": PRODUCT}, ["Oxford &lt;Shirt&gt;"]),
    "admin_sale_create": (
        {"sale": {"name": "Week", "discount_percentage": 10, "start_date": "a", "end_date": "b"}},
        ["Week"],
    ),
    "suggest_outfit": (
        {"base": PRODUCT, "products": [PRODUCT], "reason": "White shirt goes well with navy pants"},
        ["White shirt goes well with navy pants"],
    ),
}
TEMPLATE = '{% from "assistant/_cards.html" import render_card %}{{ render_card(card) }}'


def test_every_tool_result_renders_its_card(app):
    with app.test_request_context("/"):
        for tool, (data, expected) in RESULTS.items():
            card = cards.card_for(tool, data)
            html = render_template_string(TEMPLATE, card=card)
            for text in expected:
                assert text in html, (tool, text, html)
            assert "<img src=x" not in html and "<Shirt>" not in html


def test_confirmation_error_and_login_cards(app):
    with app.test_request_context("/"):
        confirm = render_template_string(
            TEMPLATE, card=cards.confirmation_card("abc", "cart_clear", "Remove every item <now>.")
        )
        error = render_template_string(TEMPLATE, card=cards.error_card("Nope <script>"))
        login = render_template_string(TEMPLATE, card=cards.login_card())
    assert "Approve" in confirm and "Cancel" in confirm and "/chat/confirm/abc" in confirm and "&lt;now&gt;" in confirm
    assert "Nope &lt;script&gt;" in error
    assert 'href="/login"' in login


def test_assistant_text_is_escaped_with_a_tiny_markdown_subset():
    html = str(chat_text("**Done** — pay at /orders/7/pay <script>alert(1)</script> [x](javascript:alert(1))"))
    assert html.startswith("<strong>Done</strong>")
    assert '<a href="/orders/7/pay">/orders/7/pay</a>' in html
    assert "<script>" not in html and 'href="javascript' not in html
