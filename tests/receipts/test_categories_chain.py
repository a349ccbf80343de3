"""categorize_item's chain, stage by stage: exact → keyword → fuzzy → none with suggestions."""

import pytest

from insightshop.extensions import db
from insightshop.models.receipts import Category
from insightshop.services.actors import Actor
from insightshop.services.receipts import categorize
from insightshop.services.receipts.category_keywords import KEYWORDS, KNOWN_ITEMS, WEAK_KEYWORDS
from insightshop.services.receipts.item_names import item_words
from tests.factories import make_product, make_user
from tests.receipts.category_helpers import categories, make_receipt_item, migration_categories  # noqa: F401

GUEST = Actor(guest_id="receipt-guest")


def ask(name, actor=GUEST):
    return categorize.categorize_item(actor, name)


# exact -------------------------------------------------------------------------------------------------------


def test_an_owners_own_choice_is_an_exact_match_for_them_only(categories):  # noqa: F811
    owner, other = make_user("owner@example.com"), make_user("other@example.com")
    make_receipt_item(owner, "KOPI SPECIAL 2", category=categories["Beverages"], method="manual")

    mine = ask("kopi special 2", Actor(user=owner))
    theirs = ask("kopi special 2", Actor(user=other))

    assert (mine["category_name"], mine["match_method"], mine["match_score"]) == ("Beverages", "exact", 1.0)
    assert theirs["match_method"] != "exact"  # nobody learns from another person's receipts


def test_only_choices_the_owner_made_count_as_known(categories):  # noqa: F811
    owner = make_user("owner@example.com")
    make_receipt_item(owner, "MYSTERY ITEM", category=categories["Toys"], method="keyword")

    assert ask("MYSTERY ITEM", Actor(user=owner))["match_method"] != "exact"


def test_the_most_recent_choice_of_the_owner_wins(categories):  # noqa: F811
    owner = make_user("owner@example.com")
    make_receipt_item(owner, "BONZ SAVER", category=categories["Snacks"], method="manual")
    make_receipt_item(owner, "BONZ SAVER", category=categories["Bakery"], method="manual")

    assert ask("BONZ SAVER", Actor(user=owner))["category_name"] == "Bakery"


def test_curated_receipt_items_match_exactly_whatever_the_punctuation(categories):  # noqa: F811
    answer = ask("o.c white")

    assert (answer["category_name"], answer["match_method"], answer["suggestions"]) == ("Bakery", "exact", [])


def test_the_shops_own_products_are_known_items(categories):  # noqa: F811
    make_product("Harbour Canvas Low-Top", clothing_type="sneakers")
    make_product("Breton Stripe Tee", clothing_type="t-shirt")

    assert ask("HARBOUR CANVAS LOW-TOP")["category_name"] == "Footwear"
    assert ask("Breton Stripe Tee")["match_method"] == "exact"


# keyword -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Organic Bananas", "Fruits"),  # plural
        ("Tomatoes", "Vegetables"),  # a plural the catalog's singulariser does not know
        ("Sandwich", "Prepared Food"),  # word boundaries: not "sand"
        ("PASIR HALUS (BAG)", "Hardware"),  # Malay: sand
        ("TEH O AIS", "Beverages"),  # Malay shorthand: tea, ice
        ("NASI LEMAK", "Prepared Food"),
        ("KF MODELLING CLAY KIDDY FISH", "Toys"),  # the longer keyword beats "fish"
        ("Peanut Butter", "Condiments"),  # not Dairy
        ("MAGGI CHICKEN STOCK CUBES", "Condiments"),  # not Poultry
        ('7" PAINT ROLLER SET', "Hardware"),  # "set" alone would be a restaurant set
        ("BUTA SHOGA YAKI SET", "Prepared Food"),
        ("2 tees", "Clothing"),  # the shop's vocabulary: tee → t-shirt
        ("Trainers size 42", "Footwear"),
        ("Men's Slim Jeans 32", "Clothing"),
        ("M&G R3 GEL PEN 0.5MM 3'S", "Stationery"),
    ],
)
def test_keyword_rules(categories, name, expected):  # noqa: F811
    answer = ask(name)

    assert (answer["category_name"], answer["match_method"]) == (expected, "keyword")
    assert answer["category_id"] == categories[expected].id


def test_a_confident_keyword_match_has_no_suggestions(categories):  # noqa: F811
    answer = ask("Chicken Breast")

    assert answer == {"category_id": categories["Poultry"].id, "category_name": "Poultry", "match_method": "keyword",
                      "match_score": 0.95, "suggestions": []}  # fmt: skip


def test_equally_specific_keywords_of_two_categories_give_the_later_word_and_suggestions(categories):  # noqa: F811
    answer = ask("ORANGE PEEL CHOCOLATE")

    assert (answer["category_name"], answer["match_score"]) == ("Snacks", 0.8)
    assert [s["category_name"] for s in answer["suggestions"]][:2] == ["Snacks", "Fruits"]


def test_a_category_someone_added_matches_its_own_name(categories):  # noqa: F811
    db.session.add(Category(name="Pet Food", description="Food for pets"))
    db.session.commit()

    assert ask("PET FOOD 2KG")["category_name"] == "Pet Food"


# fuzzy -------------------------------------------------------------------------------------------------------


def test_typos_match_fuzzily_at_0_8_or_more(categories):  # noqa: F811
    answer = ask("CHIKEN BREAST")

    assert (answer["category_name"], answer["match_method"]) == ("Poultry", "fuzzy")
    assert answer["match_score"] >= 0.8


def test_a_fuzzy_match_below_the_confident_score_comes_with_suggestions(categories):  # noqa: F811
    answer = ask("vegetabel")

    assert (answer["category_name"], answer["match_method"]) == ("Vegetables", "fuzzy")
    assert 0.8 <= answer["match_score"] < categorize.CONFIDENT
    assert answer["suggestions"][0]["category_name"] == "Vegetables" and len(answer["suggestions"]) == 3


def test_a_last_word_cut_short_by_the_till_meets_the_word_it_begins(categories):  # noqa: F811
    answer = ask("BRAISED DUC")

    assert (answer["category_name"], answer["match_method"]) == ("Poultry", "fuzzy")


def test_a_short_word_never_matches_fuzzily_inside_the_name(categories):  # noqa: F811
    assert ask("ICE XQZT")["category_name"] != "Grains"  # "ice" is not "rice"


# none --------------------------------------------------------------------------------------------------------


def test_nothing_matches_so_the_person_chooses_from_three_suggestions(categories):  # noqa: F811
    answer = ask("XQZT PLORB 77")

    assert answer["category_id"] is None and answer["category_name"] is None
    assert (answer["match_method"], answer["match_score"]) == ("none", 0.0)
    assert len(answer["suggestions"]) == 3
    active = {c.id: c.name for c in categories.values()}
    assert all(active[s["category_id"]] == s["category_name"] and 0 <= s["score"] <= 1 for s in answer["suggestions"])


def test_inactive_categories_are_never_answered_nor_suggested(categories):  # noqa: F811
    categories["Fruits"].is_active = False
    db.session.commit()

    answer = ask("Organic Bananas")

    assert answer["category_name"] != "Fruits"
    assert "Fruits" not in {s["category_name"] for s in answer["suggestions"]}


def test_an_owners_choice_of_a_retired_category_is_forgotten(categories):  # noqa: F811
    owner = make_user("owner@example.com")
    make_receipt_item(owner, "XQZT PLORB", category=categories["Toys"], method="manual")
    categories["Toys"].is_active = False
    db.session.commit()

    assert ask("XQZT PLORB", Actor(user=owner))["category_name"] is None


def test_many_names_read_the_database_once(categories):  # noqa: F811
    answers = categorize.categorize_items(GUEST, ["Milk 2%", "XQZT"])

    assert [a["category_name"] for a in answers] == ["Dairy", None]


# the data ----------------------------------------------------------------------------------------------------


def test_every_category_named_in_the_data_is_a_starting_category():
    names = {name for name, _ in migration_categories()}
    used = set(KEYWORDS) | set(WEAK_KEYWORDS) | set(KNOWN_ITEMS.values())

    assert used <= names and set(KEYWORDS) == names


def test_no_keyword_points_to_two_categories():
    owners = {}
    for strength, table in (("strong", KEYWORDS), ("weak", WEAK_KEYWORDS)):
        for name, keywords in table.items():
            for keyword in keywords:
                owners.setdefault(item_words(keyword), set()).add((name, strength))

    assert {words: found for words, found in owners.items() if len(found) > 1} == {}
    assert all(words for words in owners)
