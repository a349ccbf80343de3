"""search_products with the brief's arguments (issue 28): exclusions really exclude — matches and suggestions alike —,
several garments rank in the order given, and the strict schema refuses what the shop does not know."""

from __future__ import annotations

import pytest

from insightshop.extensions import db
from insightshop.models.catalog import Product
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool


@pytest.fixture
def guest(demo_catalog):
    return Actor(guest_id="brief-search")


def search(actor: Actor, **arguments) -> tuple[list[Product], list[Product]]:
    result = run_tool("search_products", arguments, actor)
    assert result["ok"], result
    data = result["data"]
    rows = [db.session.get(Product, p["id"]) for p in data["products"]]
    return rows, [db.session.get(Product, p["id"]) for p in data.get("suggestions", [])]


def test_a_material_ruled_out_is_in_no_match_and_no_suggestion(guest):
    everything, _ = search(guest, clothing_type="sweater")
    assert "wool" in {p.fabric for p in everything}  # the guard: wool sweaters exist

    matches, suggestions = search(guest, clothing_type="sweater", exclude_materials=["wool", "cashmere"])

    assert matches and all(p.clothing_type == "sweater" for p in matches)
    assert not {p.fabric for p in matches + suggestions} & {"wool", "cashmere"}


def test_suggestions_keep_the_exclusions_when_nothing_matches(guest):
    matches, suggestions = search(guest, clothing_type="coat", max_price=80, exclude_materials=["wool"])

    assert suggestions and all(p.fabric != "wool" for p in matches + suggestions)


def test_a_colour_ruled_out_is_never_the_colour_a_product_is_shown_in(guest):
    matches, suggestions = search(guest, clothing_type="sneakers", exclude_colors=["white", "black"])

    assert matches and not {p.color for p in matches + suggestions} & {"white", "black"}


def test_several_garments_rank_in_the_order_given_and_products_can_be_left_out(guest):
    matches, _ = search(guest, category="men", clothing_types=["shirt", "pants"], exclude_product_ids=[1])

    kinds = [p.clothing_type for p in matches]
    assert kinds and kinds == sorted(kinds, key=["shirt", "pants"].index) and 1 not in {p.id for p in matches}


def test_colours_and_seasons_are_any_of_and_materials_all_of_the_listed(guest):
    matches, _ = search(guest, colors=["navy", "blue"], seasons=["summer"], materials=["linen"])

    assert matches and all(p.fabric == "linen" and p.season == "summer" for p in matches)
    assert all({"navy", "blue"} & {v.color for v in p.variants} for p in matches)


@pytest.mark.parametrize("arguments", [{"exclude_materials": ["plastic"]}, {"exclude_colors": ["teal"]},
                                       {"clothing_types": ["hats"]}, {"exclude_product_ids": ["one"]}])  # fmt: skip
def test_the_strict_schema_refuses_what_the_shop_does_not_know(guest, arguments):
    result = run_tool("search_products", arguments, guest)

    assert not result["ok"] and result["error"]["code"] == "invalid_arguments"
