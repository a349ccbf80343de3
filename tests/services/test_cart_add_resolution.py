"""cart_add_item by description: the product a shopper means, or a question (ambiguous / variant_required)."""

from insightshop.agent.replies import compose, error_text
from insightshop.models.cart import CartItem
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.factories import make_product, make_user


def shopper() -> Actor:
    return Actor(user=make_user("shopper@example.com"))


def cart_lines(actor):
    return [(i.variant.product.id, i.variant.color, i.variant.size, i.quantity)
            for i in CartItem.query.filter_by(user_id=actor.user.id)]  # fmt: skip


def test_add_two_large_white_shirts_adds_a_mens_shirt_in_l_and_says_which(demo_catalog):
    actor = shopper()
    arguments = {"clothing_type": "shirts", "selected_color": "white", "selected_size": "large", "quantity": 2}

    result = run_tool("cart_add_item", arguments, actor)

    assert result["ok"], result
    [(product_id, color, size, quantity)] = cart_lines(actor)
    added = result["data"]["added"][0]
    assert (added["category"], added["clothing_type"], color, size, quantity) == ("men", "shirt", "white", "L", 2)
    assert product_id == added["product_id"] != 145
    reply = compose(
        [{"name": "cart_add_item", "arguments": arguments, "outcome": "executed", "result": result["data"]}]
    )
    assert reply == f"Added 2 × {added['name']} (Men's, White, L) to your cart."


def test_kids_white_shirt_goes_to_the_kids_department(demo_catalog):
    actor = shopper()

    result = run_tool("cart_add_item", {"clothing_type": "shirt", "selected_color": "white", "selected_size": "M",
                                        "category": "kids"}, actor)  # fmt: skip

    assert result["ok"] and result["data"]["added"][0]["category"] == "kids"


def test_equally_good_products_are_ambiguous_and_nothing_is_added():
    actor = shopper()
    first = make_product("Oxford Shirt", rating="4.0", price="50.00")
    second = make_product("Poplin Shirt", rating="4.0", price="55.00")

    result = run_tool(
        "cart_add_item", {"clothing_type": "shirt", "selected_color": "white", "selected_size": "M"}, actor
    )

    assert result["ok"] is False and result["error"]["code"] == "ambiguous"
    assert {d["product_id"] for d in result["error"]["details"]} == {first.id, second.id}
    assert set(result["error"]["details"][0]) == {"product_id", "name", "category", "color", "price", "sizes"}
    assert cart_lines(actor) == []
    entry = {"name": "cart_add_item", "outcome": "error", "error": {**result["error"], "kind": "validation"}}
    assert "Oxford Shirt" in error_text(entry) and "Poplin Shirt" in error_text(entry)


def test_a_multi_size_product_without_a_size_asks_for_the_size_only_when_single_colour():
    actor = shopper()
    product = make_product("Oxford Shirt", colors=("white",), sizes=("S", "M", "L"))

    result = run_tool("cart_add_item", {"product_id": product.id}, actor)

    assert result["error"]["code"] == "variant_required"
    details = result["error"]["details"]
    assert [d["field"] for d in details] == ["selected_size"]  # one colour: never asked
    assert {k: details[0][k] for k in ("product_id", "name", "sizes", "colors")} == {
        "product_id": product.id, "name": "Oxford Shirt", "sizes": ["S", "M", "L"], "colors": ["white"]}  # fmt: skip
    assert cart_lines(actor) == []


def test_a_multi_colour_product_without_colour_or_size_asks_for_both():
    actor = shopper()
    product = make_product("Striped Polo", clothing_type="polo", color="navy", colors=("navy", "red"), sizes=("M", "L"))

    result = run_tool("cart_add_item", {"product_id": product.id}, actor)

    details = result["error"]["details"]
    assert result["error"]["code"] == "variant_required"
    assert {d["field"] for d in details} == {"selected_color", "selected_size"}
    assert details[0]["colors"] == ["navy", "red"] and details[0]["sizes"] == ["M", "L"]
