"""Honest search: every stated constraint is a hard filter; the closest others are suggestions that say what they miss."""

from datetime import timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.sales import Sale
from insightshop.services import pricing
from insightshop.services.catalog import CatalogQuery, resolve_product, search_catalog
from insightshop.services.errors import DomainError
from insightshop.services.search_constraints import unmet_reasons
from tests.factories import make_product


def running_sale(percent, **scope):
    today = pricing.today()
    sale = Sale(name=f"{percent}% off", discount_percentage=Decimal(percent), is_active=True,
                start_date=today - timedelta(days=1), end_date=today + timedelta(days=1), **scope)  # fmt: skip
    db.session.add(sale)
    db.session.commit()
    return sale


def test_red_dresses_under_50_in_the_demo_catalog_lists_no_padding_and_suggests_with_unmet(demo_catalog):
    page = search_catalog(CatalogQuery(text="show me red dresses under 50 dollars"))

    for product in page.products:  # none exist in the demo catalog, and nothing else may stand in for them
        assert product.clothing_type == "dress" and "red" in product.available_colors and product.price <= 50
    assert page.total == 0 and page.products == []
    assert page.description == "red dresses under $50"
    first = page.suggestions[0]
    assert (first.product.name, first.product.clothing_type, first.unmet) == ("Wrap Midi Dress", "dress", ["max_price"])
    assert unmet_reasons(first.product, first.unmet, page.wanted) == ["over $50"]
    for suggestion in page.suggestions:
        assert suggestion.unmet, suggestion.product.name
        assert suggestion.product.clothing_type == "dress"  # one constraint relaxed at a time: colour or price
        if suggestion.unmet == ["color"]:
            assert "red" not in suggestion.product.available_colors and suggestion.product.price <= 50


def test_mens_jeans_are_only_jeans_in_the_mens_department(demo_catalog):
    page = search_catalog(CatalogQuery(text="men's jeans", per_page=100))

    assert page.total >= 3
    assert {(p.category, p.clothing_type) for p in page.products} == {("men", "jeans")}
    assert page.suggestions == []


def test_kids_tee_is_kids_t_shirts_only(demo_catalog):
    page = search_catalog(CatalogQuery(text="kids tee", per_page=100))

    assert page.total > 0
    assert {(p.category, p.clothing_type) for p in page.products} == {("kids", "t-shirt")}


def test_on_sale_means_products_in_a_running_sale_only():
    covered = make_product("Field Jacket", clothing_type="jacket", category="men", price="100.00")
    make_product("Oxford Shirt", clothing_type="shirt", category="men")
    make_product("Wrap Dress", clothing_type="dress", category="women")
    running_sale(20, clothing_types=["jacket"])

    by_words = search_catalog(CatalogQuery(text="anything on sale?"))
    by_flag = search_catalog(CatalogQuery(on_sale=True))

    assert [p.id for p in by_words.products] == [covered.id]
    assert [p.id for p in by_flag.products] == [covered.id]


def test_on_sale_with_no_running_sale_finds_nothing_rather_than_everything():
    make_product("Field Jacket", clothing_type="jacket")
    today = pricing.today()
    db.session.add(Sale(name="Over", discount_percentage=Decimal(30), is_active=True,
                        start_date=today - timedelta(days=9), end_date=today - timedelta(days=2)))  # fmt: skip
    db.session.commit()

    page = search_catalog(CatalogQuery(text="on sale"))

    assert (page.total, page.products, page.suggestions) == (0, [], [])


def test_price_bounds_apply_to_the_price_after_sales():
    discounted = make_product("Wrap Dress", clothing_type="dress", category="women", color="red", price="60.00")
    make_product("Tea Dress", clothing_type="dress", category="women", color="red", price="55.00")
    running_sale(25, product_ids=[discounted.id])

    page = search_catalog(CatalogQuery(text="red dresses", max_price=Decimal("50")))

    assert [p.id for p in page.products] == [discounted.id]  # $45 today
    assert [s.unmet for s in page.suggestions] == [["max_price"]]


def test_every_constraint_holds_at_once_and_filters_and_words_must_both_hold():
    make_product("Oxford Shirt", color="white", sizes=("M", "L"), category="men", price="40.00")
    make_product("Oxford Shirt", color="blue", sizes=("L",), category="men", price="40.00")
    make_product("Oxford Shirt", color="white", sizes=("L",), category="kids", price="20.00")
    make_product("Oxford Shirt", color="white", sizes=("S",), category="men", price="30.00")

    page = search_catalog(CatalogQuery(text="white shirt", category=("men",), size=("L",), max_price=Decimal(45)))
    contradictory = search_catalog(CatalogQuery(text="white shirt", color=("blue",)))

    assert [(p.color, p.category, p.available_sizes) for p in page.products] == [("white", "men", ["M", "L"])]
    assert contradictory.total == 0


def test_suggestions_relax_one_constraint_at_a_time_closest_first():
    over = make_product("Wrap Midi Dress", clothing_type="dress", category="women", color="red", price="60.95")
    other_colour = make_product("Shift Dress", clothing_type="dress", category="women", color="navy", price="45.00")
    make_product("Red Skirt", clothing_type="skirt", category="women", color="red", price="30.00")

    page = search_catalog(CatalogQuery(text="red dresses under $50"))

    assert page.products == []
    assert [(s.product.id, s.unmet) for s in page.suggestions][:2] == [(over.id, ["max_price"]),
                                                                       (other_colour.id, ["color"])]  # fmt: skip
    assert unmet_reasons(other_colour, ["color"], page.wanted) == ["navy, not red"]


def test_a_few_matches_also_bring_suggestions_but_never_mixed_into_products():
    match = make_product("Linen Shirt", clothing_type="shirt", color="white", price="30.00")
    make_product("Linen Shirt", clothing_type="shirt", color="blue", price="30.00")

    page = search_catalog(CatalogQuery(text="white shirts"))

    assert [p.id for p in page.products] == [match.id]
    assert [s.unmet for s in page.suggestions] == [["color"]]


def test_dress_shirt_is_a_shirt_described_as_a_dress_shirt_not_dresses_or_shirts():
    wanted = make_product("Crisp Poplin Dress Shirt", clothing_type="shirt")
    make_product("Wrap Dress", clothing_type="dress", category="women")

    assert [p.id for p in search_catalog(CatalogQuery(text="dress shirts")).products] == [wanted.id]


# Product resolution ------------------------------------------------------------------------------


def test_large_white_shirts_resolve_to_an_adult_mens_shirt_not_the_kids_one(demo_catalog):
    product, _ = resolve_product("shirts", "white", "L", None, 2)

    assert (product.category, product.clothing_type) == ("men", "shirt")
    assert any(v.color == "white" and v.size == "L" and v.stock >= 2 for v in product.variants)


def test_kids_white_shirt_resolves_to_kids(demo_catalog):
    product, _ = resolve_product("shirt", "white", "L", "kids")

    assert (product.category, product.clothing_type) == ("kids", "shirt")


def test_adult_preferred_over_a_better_rated_kids_product():
    kids = make_product("Oxford Shirt", category="kids", rating="5.0")
    adult = make_product("Oxford Shirt", category="men", rating="3.0")

    assert resolve_product("shirt", "white", "L")[0].id == adult.id
    assert resolve_product("shirt", "white", "L", "kids")[0].id == kids.id


def test_equally_fitting_products_are_ambiguous_with_candidate_details():
    first = make_product("Oxford Shirt", category="men", rating="4.0", price="50.00")
    second = make_product("Poplin Shirt", category="men", rating="4.0", price="55.00")

    with pytest.raises(DomainError) as raised:
        resolve_product("shirt", "white", "M")

    assert raised.value.code == "ambiguous"
    assert sorted(raised.value.details, key=lambda d: d["product_id"]) == [
        {"product_id": first.id, "name": "Oxford Shirt", "category": "men", "color": "white", "price": "50.00",
         "sizes": ["S", "M", "L"]},
        {"product_id": second.id, "name": "Poplin Shirt", "category": "men", "color": "white", "price": "55.00",
         "sizes": ["S", "M", "L"]},
    ]  # fmt: skip


def test_a_named_department_is_a_hard_filter_in_resolution():
    make_product("Oxford Shirt", category="men")

    with pytest.raises(DomainError) as raised:
        resolve_product("shirt", "white", "L", "women")

    assert raised.value.code == "out_of_stock"


@pytest.mark.parametrize("text", ["warm coat", "a cozy coat", "winter coat"])
def test_warm_finds_what_the_catalog_calls_wool_fleece_or_winter(text):
    wool = make_product("Wool Overcoat", clothing_type="coat", category="women", fabric="wool", season="winter",
                        description="A long, lined coat.")  # fmt: skip
    make_product("Linen Duster", clothing_type="coat", category="women", fabric="linen", season="summer",
                 description="An airy coat for hot days.")  # fmt: skip

    page = search_catalog(CatalogQuery(text=text, category=("women",)))

    assert [p.id for p in page.products] == [wool.id]


def test_an_occasion_finds_tailored_and_smart_clothes_not_nothing():
    blazer = make_product("Tailored Blazer", clothing_type="jacket", category="men", fabric="wool",
                          description="A sharp single-breasted jacket.")  # fmt: skip
    make_product("Trail Fleece", clothing_type="jacket", category="men", fabric="polyester",
                 description="For muddy walks.")  # fmt: skip

    page = search_catalog(CatalogQuery(text="something for a wedding", category=("men",)))

    assert [p.id for p in page.products] == [blazer.id]
