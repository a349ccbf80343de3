"""Words in the search text that name a constraint become hard filters; the rest must match as terms."""

from decimal import Decimal

import pytest

from insightshop.services.search_terms import canonical_clothing_type, parse_query


@pytest.mark.parametrize(
    "text, colors, kinds, categories, low, high",
    [
        ("show me red dresses under 50 dollars", ("red",), ("dress",), (), None, Decimal(50)),
        ("men's jeans", (), ("jeans",), ("men",), None, None),
        ("kids tee", (), ("t-shirt",), ("kids",), None, None),
        ("navy polo between $20 and $40", ("navy",), ("polo",), (), Decimal(20), Decimal(40)),
        ("coats over 100", (), ("coat",), (), Decimal(100), None),
        ("grey trousers below $60.50", ("grey",), ("pants",), (), None, Decimal("60.50")),
        ("pajamas for my 6-year-old", (), ("pajamas",), ("kids",), None, None),
        ("a hoodie for my daughter", (), ("hoodie",), ("kids",), None, None),
        ("charcoal jumper for him", ("grey",), ("sweater",), ("men",), None, None),
    ],
)
def test_words_naming_constraints_become_filters(text, colors, kinds, categories, low, high):
    parsed = parse_query(text)

    assert (parsed.colors, parsed.clothing_types, parsed.categories) == (colors, kinds, categories)
    assert (parsed.min_price, parsed.max_price) == (low, high)
    assert parsed.terms == ()  # nothing left over that would have to match as free text


def test_deal_words_mean_on_sale_and_in_stock_is_a_filter():
    assert parse_query("anything on sale?").on_sale
    assert parse_query("discounted jackets").on_sale
    assert parse_query("white shirts in stock").in_stock
    assert not parse_query("white shirts").on_sale


def test_a_garment_word_before_another_is_a_modifier():
    parsed = parse_query("dress shirts")

    assert parsed.clothing_types == ("shirt",)
    assert parsed.terms == (("dress",),)


def test_other_words_stay_terms_that_must_match():
    parsed = parse_query("quilted puffer jacket ")

    assert parsed.clothing_types == ("jacket",)
    assert parsed.terms == (("quilted",), ("puffer",))


def test_canonical_clothing_type_reads_the_shop_vocabulary():
    assert [canonical_clothing_type(w) for w in ("shirts", "Tees", "trousers", "T-Shirt", "polo shirts", "tuxedo")] == [
        "shirt", "t-shirt", "pants", "t-shirt", "polo", None]  # fmt: skip
