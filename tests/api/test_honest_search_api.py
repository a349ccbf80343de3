"""One search for the JSON API, the catalog page and the search_products tool: same products, honest suggestions."""

import re

from insightshop.agent.replies import compose
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.factories import make_product


def shop_with_dresses():
    over = make_product("Wrap Midi Dress", clothing_type="dress", category="women", color="red", price="60.95")
    navy = make_product("Shift Dress", clothing_type="dress", category="women", color="navy", price="45.00")
    socks = make_product("Dress Socks", clothing_type="socks", category="men", color="red", price="9.00")
    return over, navy, socks


def ids(products):
    return [p["id"] for p in products]


def test_api_get_post_and_tool_give_the_same_products_and_suggestions(client):
    make_product("Slim Jeans", clothing_type="jeans", category="men", color="blue", price="70.00")
    make_product("Straight Jeans", clothing_type="jeans", category="men", color="black", price="80.00")
    make_product("Court Sneakers", clothing_type="sneakers", category="men", color="white", price="90.00")
    make_product("Wide Jeans", clothing_type="jeans", category="women", color="blue", price="75.00")

    by_get = client.get("/api/products", query_string={"q": "men's jeans"}).get_json()
    by_post = client.post("/api/products/search", json={"query": "men's jeans"}).get_json()
    by_tool = run_tool("search_products", {"query": "men's jeans"}, Actor())["data"]
    by_args = run_tool("search_products", {"clothing_type": "jeans", "category": "men"}, Actor())["data"]

    assert {p["name"] for p in by_get["products"]} == {"Slim Jeans", "Straight Jeans"}
    assert ids(by_get["products"]) == ids(by_post["products"]) == ids(by_tool["products"]) == ids(by_args["products"])
    assert ids(by_get["suggestions"]) == ids(by_post["suggestions"]) == ids(by_tool["suggestions"])
    assert all(p["clothing_type"] == "jeans" for p in by_get["suggestions"])  # women's jeans: unmet category
    assert {tuple(s["unmet"]) for s in by_get["suggestions"]} == {("category",)}


def test_red_dresses_under_50_returns_no_products_and_suggestions_with_unmet(client):
    over, navy, socks = shop_with_dresses()

    body = client.post("/api/products/search", json={"query": "red dresses", "max_price": 50}).get_json()

    assert body["products"] == [] and body["pagination"]["total"] == 0
    assert [(s["id"], s["unmet"], s["unmet_reasons"]) for s in body["suggestions"]] == [
        (over.id, ["max_price"], ["over $50"]),
        (navy.id, ["color"], ["navy, not red"]),
    ]
    assert socks.id not in ids(body["suggestions"])  # red, cheap, but socks are not a dress
    assert body["summary"].startswith("No red dresses under $50.")
    assert body["interpreted_as"]["constraints"] == ["max_price", "color", "clothing_type"]


def test_tool_takes_the_new_hard_filter_arguments(client):
    shop_with_dresses()

    data = run_tool("search_products", {"clothing_type": "dresses", "color": "red", "max_price": 50, "in_stock": True},
                    Actor())["data"]  # fmt: skip
    on_sale = run_tool("search_products", {"on_sale": True}, Actor())["data"]

    assert data["products"] == [] and data["suggestions"][0]["unmet"] == ["max_price"]
    assert on_sale["products"] == [] and on_sale["suggestions"] == []


def test_matched_colour_shows_in_the_api_product_picture(client):
    two_tone = make_product("Striped Polo", clothing_type="polo", color="navy", colors=("navy", "white"))

    body = client.get("/api/products", query_string={"q": "white polo"}).get_json()

    assert ids(body["products"]) == [two_tone.id]
    assert body["products"][0]["matched_color"] == "white"
    assert body["products"][0]["image_url"].endswith("?color=white")


def test_assistant_reply_says_no_match_and_names_the_closest(client):
    shop_with_dresses()
    arguments = {"query": "red dresses under 50 dollars"}
    result = run_tool("search_products", arguments, Actor())

    reply = compose([{"name": "search_products", "arguments": arguments, "outcome": "executed",
                      "result": result["data"]}])  # fmt: skip

    assert reply.startswith("No red dresses under $50. Closest: Wrap Midi Dress, Women's, red, $60.95 (over $50)")
    assert "Here are" not in reply


def test_assistant_reply_lists_real_matches_with_their_count(client):
    make_product("Wrap Midi Dress", clothing_type="dress", category="women", color="red", price="40.00")
    make_product("Tea Dress", clothing_type="dress", category="women", color="red", price="45.00")
    make_product("Slip Dress", clothing_type="dress", category="women", color="red", price="48.00")
    result = run_tool("search_products", {"query": "red dresses under $50"}, Actor())

    reply = compose([{"name": "search_products", "arguments": {}, "outcome": "executed", "result": result["data"]}])

    assert reply.startswith("Here are 3 red dresses under $50: ")
    assert "Slip Dress" in reply and "Closest" not in reply


def test_catalog_page_says_no_red_dresses_and_shows_closest_matches_with_what_they_miss(client, htmx_client):
    over, navy, socks = shop_with_dresses()

    html = client.get("/catalog", query_string={"q": "red dresses under 50"}).get_data(as_text=True)
    fragment = htmx_client.get("/catalog", query_string={"q": "red dresses", "max_price": "50"}).get_data(as_text=True)

    for page in (html, fragment):
        assert "No red dresses under $50." in page
        assert "Closest matches" in page
        closest = page[page.index("Closest matches") :]
        assert re.search(r"Wrap Midi Dress</h3>\s*<p class=\"card-misses\">over \$50</p>", closest)
        assert re.search(r"Shift Dress</h3>\s*<p class=\"card-misses\">navy, not red</p>", closest)
        assert "Dress Socks" not in page


def test_catalog_card_shows_the_variant_colour_that_matched(client):
    two_tone = make_product("Striped Polo", clothing_type="polo", color="navy", colors=("navy", "white"))

    html = client.get("/catalog", query_string={"color": "white"}).get_data(as_text=True)
    plain = client.get("/catalog").get_data(as_text=True)

    assert f'src="/products/{two_tone.id}/image.svg?color=white"' in html
    assert f'src="/products/{two_tone.id}/image.svg"' in plain
