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


def render(card) -> str:
    return render_template_string(TEMPLATE, card=card)


def test_a_multi_size_product_card_offers_its_sizes_as_buttons_that_add_it_by_id(app):
    data = {"products": [PRODUCT | {"available_colors": ["white"], "variants": [
        {"color": "white", "size": "M", "stock": 0, "in_stock": False}, {"color": "white", "size": "L", "stock": 3, "in_stock": True}]}]}  # fmt: skip
    card = cards.card_for("search_products", data)
    with app.test_request_context("/"):
        html = render(card)

    assert card["products"][0] | {"price": None} == card["products"][0] | {
        "sizes": ["M", "L"], "colors": ["white"], "sold_out_sizes": ["M"], "price": None}  # fmt: skip
    assert 'action="/chat/add"' in html and 'name="product_id" value="1"' in html
    assert '<button class="size-chip" type="submit" name="size" value="L">L</button>' in html
    assert 'value="M" disabled' in html  # sold out in every colour
    assert 'type="radio"' not in html and 'name="color" value="white"' in html  # one colour: never asked
    assert "add product" not in html and "Oxford &lt;Shirt&gt;" in html


def test_several_colours_are_offered_and_a_single_size_needs_no_choice(app):
    several = PRODUCT | {"id": 5, "available_colors": ["white", "navy"], "available_sizes": ["M", "L"]}
    one_size = PRODUCT | {"id": 6, "available_colors": ["red"], "available_sizes": ["S"]}
    with app.test_request_context("/"):
        html = render(cards.card_for("search_products", {"products": [several, one_size]}))

    assert html.count('type="radio" name="color"') == 2 and 'value="navy"' in html
    single = html.split('name="product_id" value="6"')[1]
    assert (
        '<input type="hidden" name="size" value="S">' in single
        and "Add to cart" in single
        and "size-chip" not in single
    )


def test_variant_required_becomes_a_card_with_the_products_sizes(app):
    from tests.mcp.tool_cases import shop

    white, _navy, _dress = shop()
    legacy = {"code": "variant_required", "message": "Choose a colour and size of Oxford Shirt",
              "details": [{"field": "selected_size", "message": "choose one of: M, L"}]}  # fmt: skip
    detailed = legacy | {"details": {"product_id": white.id, "sizes": ["M", "L"], "colours": ["white"]}}
    with app.test_request_context("/"):
        from_arguments = cards.choice_card("cart_add_item", {"product_id": white.id, "quantity": 2}, legacy)
        from_details = cards.choice_card("cart_add_item", {"clothing_type": "shirt"}, detailed)
        html = render(from_details)

    for card in (from_arguments, from_details):
        assert card["type"] == "variant_choice" and card["product"]["id"] == white.id
        assert card["product"]["name"] == "Oxford Shirt" and card["product"]["sizes"] == ["M", "L"]
    assert from_arguments["quantity"] == 2
    assert 'value="M">M</button>' in html and 'value="L">L</button>' in html and "Oxford Shirt" in html
    assert "Choose a colour" not in html  # the card asks with buttons; the error is not repeated


def test_ambiguous_becomes_a_card_with_one_choice_per_candidate(app):
    error = {"code": "ambiguous", "message": "Several products match equally well",
             "details": [{"product_id": 1, "name": "Oxford <b>Shirt</b>", "category": "men", "color": "white", "price": "40.00", "sizes": ["M", "L"]},
                         {"product_id": 2, "name": "Kids Oxford", "category": "kids", "color": "white", "price": "20.00", "sizes": ["S"]}]}  # fmt: skip
    card = cards.choice_card("cart_add_item", {"clothing_type": "shirt", "selected_size": "L", "quantity": 2}, error)
    with app.test_request_context("/"):
        html = render(card)

    assert card["type"] == "choices" and [c["product_id"] for c in card["candidates"]] == [1, 2]
    assert card["size"] == "L" and card["quantity"] == 2
    assert html.count('action="/chat/add"') == 2 and html.count('name="size" value="L"') == 2
    assert 'name="quantity" value="2"' in html and "Oxford &lt;b&gt;Shirt&lt;/b&gt;" in html and "<b>Shirt" not in html


def test_other_failures_get_no_choice_card():
    assert cards.choice_card("cart_add_item", {}, {"code": "out_of_stock", "message": "x", "details": []}) is None
    assert (
        cards.choice_card("cart_remove_item", {}, {"code": "ambiguous", "message": "x", "details": [{"product_id": 1}]})
        is None
    )
    assert cards.choice_card("cart_add_item", {}, {"code": "variant_required", "message": "x", "details": []}) is None


def test_suggestions_say_what_they_miss_and_decided_confirmations_have_no_buttons(app):
    data = {"products": [], "suggestions": [PRODUCT | {"unmet": ["color", "max_price"]}], "pagination": {"total": 0}}
    with app.test_request_context("/"):
        html = render(cards.card_for("search_products", data))
        decided = render(cards.confirmation_card("abc", "cart_clear", "Remove everything.") | {"status": "approved"})

    assert "Closest matches" in html and "Other colour, above your budget" in html
    assert "<button" not in decided and "✓ Approved" in decided and 'id="confirm-actions-abc"' in decided


def test_only_the_shops_own_links_become_links(app):
    hostile = PRODUCT | {"url": "javascript:alert(1)", "image_url": "data:text/html,<script>alert(1)</script>"}
    card = cards.card_for("search_products", {"products": [hostile]})
    with app.test_request_context("/"):
        html = render(card)

    assert card["products"][0]["url"] is None and card["products"][0]["image_url"] is None
    assert "javascript:" not in html and "data:" not in html and 'href="#"' in html


def test_a_page_past_the_last_or_a_search_with_nothing_near_has_no_empty_card():
    # "show me more" after every match was shown: the reply says so; a card would only say how many there were
    assert cards.card_for("search_products", {"products": [], "pagination": {"total": 12}}) is None
    assert cards.card_for("search_products", {"products": [], "suggestions": [], "pagination": {"total": 0}}) is None
    assert cards.card_for("suggest_outfit", {"products": [], "reason": "For a wedding"}) is None
    assert (
        cards.card_for("suggest_outfit", {"products": [PRODUCT], "reason": "For a wedding"})["title"] == "For a wedding"
    )
