"""estimate_expiration_date: item table → fuzzy on the item → category rule → conservative default, a safety
margin off every date, and no invented date for goods that do not go off."""

from datetime import date, timedelta

import pytest

from insightshop.extensions import db
from insightshop.services.actors import Actor
from insightshop.services.errors import Invalid, NotFound
from insightshop.services.pricing import today
from insightshop.services.receipts.expiration import estimate_expiration_date
from insightshop.services.receipts.shelf_life_rules import CATEGORY_RULES, ITEM_RULES, NON_PERISHABLE, STORAGE_WORDS
from tests.receipts.category_helpers import categories, migration_categories  # noqa: F401

GUEST = Actor(guest_id="pantry-guest")
BOUGHT = date(2026, 1, 10)


def estimate(name, category=None, bought=BOUGHT):
    return estimate_expiration_date(GUEST, name, bought, category.id if category else None)


def test_a_category_rule_with_the_safety_margin(categories):  # noqa: F811
    answer = estimate("Atlantic Salmon Fillet", categories["Seafood"])

    assert answer == {
        "item_name": "Atlantic Salmon Fillet", "purchase_date": "2026-01-10", "category_id": categories["Seafood"].id,
        "category_name": "Seafood", "perishable": True, "expiration_date": "2026-01-11", "shelf_life_days": 2,
        "safety_margin_days": -1, "storage_recommendation": "fridge", "source": "category-rule",
        "reason": "Seafood in general: 2 day(s) in the fridge, 1 day(s) earlier for safety.",
    }  # fmt: skip


def test_the_item_table_comes_before_the_category(categories):  # noqa: F811
    answer = estimate("Large Eggs Dozen", categories["Poultry"])

    assert (answer["source"], answer["shelf_life_days"], answer["expiration_date"]) == ("item-table", 21, "2026-01-30")


def test_the_longest_phrase_of_the_item_table_wins(categories):  # noqa: F811
    assert estimate("Vanilla Ice Cream 1L")["storage_recommendation"] == "freezer"  # not "ice" nor "cream"


def test_a_storage_word_changes_how_food_keeps(categories):  # noqa: F811
    answer = estimate("Frozen Prawns 500g", categories["Seafood"])

    assert (answer["source"], answer["storage_recommendation"], answer["shelf_life_days"]) == (
        "item-table",
        "freezer",
        90,
    )


def test_a_misspelt_item_is_found_fuzzily(categories):  # noqa: F811
    answer = estimate("STRAWBERIES 250G")

    assert (answer["source"], answer["shelf_life_days"], answer["category_name"]) == ("item-fuzzy", 3, "Fruits")


def test_an_item_rule_of_another_category_does_not_apply(categories):  # noqa: F811
    answer = estimate("Milk Chocolate Bar", categories["Snacks"])

    assert (answer["source"], answer["shelf_life_days"], answer["storage_recommendation"]) == (
        "category-rule",
        60,
        "pantry",
    )


def test_without_a_category_the_item_is_categorised_first(categories):  # noqa: F811
    answer = estimate("Chicken Thighs")

    assert (answer["category_name"], answer["source"], answer["expiration_date"]) == (
        "Poultry",
        "category-rule",
        "2026-01-11",
    )


def test_nothing_known_gives_the_seeds_conservative_default(categories):  # noqa: F811
    answer = estimate("XQZT PLORB")

    assert answer["category_id"] is None
    assert (answer["source"], answer["shelf_life_days"], answer["storage_recommendation"]) == ("default", 7, "fridge")
    assert answer["expiration_date"] == "2026-01-16"


@pytest.mark.parametrize(
    ("name", "category"), [("Leather Belt", None), ("USB-C Cable", None), ("Wool Sweater", "Clothing")]
)
def test_goods_that_do_not_go_off_get_no_date_and_a_reason(categories, name, category):  # noqa: F811
    answer = estimate(name, categories[category] if category else None)

    assert answer["perishable"] is False and answer["expiration_date"] is None and answer["shelf_life_days"] is None
    assert answer["source"] == "non-perishable" and answer["reason"] == NON_PERISHABLE[answer["category_name"]]


def test_takeaway_food_is_for_today(categories):  # noqa: F811
    answer = estimate("NASI LEMAK")

    assert (answer["category_name"], answer["expiration_date"]) == ("Prepared Food", "2026-01-10")


def test_the_safety_margin_is_configurable_but_never_adds_days(app, categories):  # noqa: F811
    app.config["EXPIRY_SAFETY_MARGIN_DAYS"] = -2
    wider = estimate("Large Eggs Dozen")
    app.config["EXPIRY_SAFETY_MARGIN_DAYS"] = 3
    positive = estimate("Large Eggs Dozen")

    assert (wider["safety_margin_days"], wider["expiration_date"]) == (-2, "2026-01-29")
    assert (positive["safety_margin_days"], positive["expiration_date"]) == (0, "2026-01-31")


def test_a_purchase_in_the_future_is_refused(categories):  # noqa: F811
    with pytest.raises(Invalid):
        estimate("Milk", bought=today() + timedelta(days=3))


def test_a_retired_or_missing_category_is_not_found(categories):  # noqa: F811
    categories["Dairy"].is_active = False
    db.session.commit()

    for category_id in (categories["Dairy"].id, 999):
        with pytest.raises(NotFound):
            estimate_expiration_date(GUEST, "Milk", BOUGHT, category_id)


def test_every_food_category_has_a_rule_and_every_other_a_reason():
    names = {name for name, _ in migration_categories()}

    assert set(CATEGORY_RULES) | set(NON_PERISHABLE) == names and not set(CATEGORY_RULES) & set(NON_PERISHABLE)
    assert {rule[3] for rule in ITEM_RULES} <= set(CATEGORY_RULES)
    storages = (
        {s for _, s in CATEGORY_RULES.values()} | {r[2] for r in ITEM_RULES} | {s for _, s in STORAGE_WORDS.values()}
    )
    assert storages <= {"fridge", "freezer", "pantry", "counter"}
