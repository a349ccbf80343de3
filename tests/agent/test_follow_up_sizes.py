"""Numeric sizes said in a follow-up on the list just shown: read through the size guide for the products meant,
never as a count ("add the second one in a 12" is one dress in the guide's letter, not twelve)."""

from __future__ import annotations

import pytest

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.services import cart
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate


@pytest.fixture
def guest(demo_catalog):
    invalidate()
    return Actor(guest_id="follow-up-sizes")


def say(actor: Actor, *messages: str) -> dict:
    turn, conversation = None, None
    for message in messages:
        turn = chat.chat_turn(actor, message, conversation)
        conversation = turn["conversation_id"]
    return turn


def shown(turn: dict) -> list[int]:
    [search] = [c for c in turn["tool_calls"] if c["name"] == "search_products"]
    return [p["id"] for p in search["result"]["products"]]


@pytest.mark.parametrize(
    "pick, index", [("add the second one in a 12", 1), ("i'll take the first one in a 12 please", 0)]
)
def test_a_uk_dress_size_on_a_picked_product_is_one_dress_in_the_guides_letter(guest, pick, index):
    listed = shown(say(guest, "a navy dress"))
    turn = say(guest, "a navy dress", pick)
    [line] = cart.get_cart(guest).lines
    assert (line.product.id, line.variant.size, line.item.quantity) == (listed[index], "M", 1)
    assert "UK 12" in turn["reply"]


@pytest.mark.parametrize("follow_up", ["the same in a 10", "what about in a 10?"])
def test_the_same_in_a_numeric_size_searches_the_brief_again_in_the_adult_letter(guest, follow_up):
    turn = say(guest, "a navy dress", follow_up)
    [search] = [c for c in turn["tool_calls"] if c["name"] == "search_products"]
    assert search["arguments"]["size"] == "M" and search["arguments"]["color"] == "navy"
    products = [db.session.get(Product, p["id"]) for p in search["result"]["products"]]
    assert products and all(p.clothing_type == "dress" and p.category != "kids" for p in products)
    assert "UK 10" in turn["reply"] and "year" not in turn["reply"]
