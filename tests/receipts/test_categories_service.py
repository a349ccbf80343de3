"""The category service: listing, seed 003's query by similar name, add_category's Title Case and reuse (also when
the unique index settles a race), and an owner setting the category of their own receipt item."""

import pytest
from sqlalchemy import func, select

from insightshop.extensions import db
from insightshop.models.receipts import Category
from insightshop.services.actors import Actor, Unauthorized
from insightshop.services.errors import Conflict, Invalid, NotFound
from insightshop.services.receipts import categories as service
from insightshop.services.receipts import categorize
from tests.factories import make_user
from tests.receipts.category_helpers import categories, make_receipt_item  # noqa: F401


@pytest.fixture
def shopper(app):
    return Actor(user=make_user())


def count() -> int:
    return db.session.scalar(select(func.count(Category.id)))


# listing and querying ----------------------------------------------------------------------------------------


def test_only_active_categories_are_listed_by_name(categories):  # noqa: F811
    categories["Toys"].is_active = False
    db.session.commit()

    names = [c.name for c in service.list_categories()]

    assert "Toys" not in names and names == sorted(names) and len(names) == 21


@pytest.mark.parametrize(
    ("name", "expected", "similarity"),
    [("dairy", "Dairy", 1.0), ("Vegetable", "Vegetables", 0.947), ("SEAFOODS", "Seafood", 0.933)],
)
def test_query_finds_the_most_similar_active_category(categories, name, expected, similarity):  # noqa: F811
    found = service.query_category_by_name(name)

    assert found == {"id": categories[expected].id, "name": expected, "description": categories[expected].description,
                     "similarity": similarity}  # fmt: skip


def test_query_below_0_8_finds_nothing(categories):  # noqa: F811
    assert service.query_category_by_name("Dairy Products") is None  # seed 003: ~0.53
    assert service.query_category_by_name("Herbs") is None


def test_query_never_finds_an_inactive_category(categories):  # noqa: F811
    categories["Toys"].is_active = False
    db.session.commit()

    assert service.query_category_by_name("Toys") is None


# Title Case --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("personal care", "Personal Care"),
        ("PERSONAL CARE", "Personal Care"),
        ("t-shirts", "T-Shirts"),
        ("T-shirts", "T-Shirts"),
        ("women's wear", "Women's Wear"),  # str.title() would say "Women'S Wear"
        ("fruits and vegetables", "Fruits and Vegetables"),
        ("DIY supplies", "DIY Supplies"),
        ("  pet   supplies ", "Pet Supplies"),
        ("3d printing", "3D Printing"),
    ],
)
def test_title_case(written, stored):
    assert service.title_case(" ".join(written.split())) == stored


def test_a_new_category_is_stored_in_title_case(categories, shopper):  # noqa: F811
    added = service.add_category(shopper, "pet supplies", "Food and toys for pets")

    stored = db.session.get(Category, added["id"])
    assert added == {"id": stored.id, "name": "Pet Supplies", "description": "Food and toys for pets",
                     "already_existed": False}  # fmt: skip
    assert stored.is_active


# reuse -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "existing"),
    [("DAIRY", "Dairy"), ("personal care", "Personal Care"), ("Vegetable", "Vegetables"), ("house hold", None)],
)
def test_an_existing_category_is_reused_whatever_the_case_or_plural(categories, shopper, written, existing):  # noqa: F811
    before = count()

    added = service.add_category(shopper, written)

    if existing is None:  # different words make a different category
        assert not added["already_existed"] and count() == before + 1
    else:
        assert added["id"] == categories[existing].id and added["name"] == existing and added["already_existed"]
        assert count() == before


def test_t_shirts_spelt_three_ways_is_one_category(categories, shopper):  # noqa: F811
    first = service.add_category(shopper, "T-shirts")

    again = [service.add_category(shopper, name) for name in ("t shirts", "T-SHIRT", "tshirts")]

    assert first["name"] == "T-Shirts"
    assert [a["id"] for a in again[:2]] == [first["id"]] * 2 and all(a["already_existed"] for a in again[:2])


def test_when_a_concurrent_request_inserts_the_name_first_the_index_decides_and_the_existing_is_returned(
    categories,  # noqa: F811
    shopper,
    monkeypatch,
):
    herbs = service.add_category(shopper, "Herbs")
    real_lookup, calls = service._same_name, []

    def missed_the_other_insert(title):
        calls.append(title)
        return None if len(calls) == 1 else real_lookup(title)

    monkeypatch.setattr(service, "_same_name", missed_the_other_insert)
    before = count()

    added = service.add_category(shopper, "HERBS")

    assert added == {**herbs, "already_existed": True}
    assert count() == before and len(calls) == 2  # the insert hit uq_categories_lower_name and was rolled back
    assert db.session.scalar(select(func.count(Category.id)).where(func.lower(Category.name) == "herbs")) == 1


def test_a_retired_category_is_not_revived_by_adding_it_again(categories, shopper):  # noqa: F811
    categories["Toys"].is_active = False
    db.session.commit()

    with pytest.raises(Conflict, match="retired"):
        service.add_category(shopper, "toys")
    assert not db.session.get(Category, categories["Toys"].id).is_active


@pytest.mark.parametrize(
    "name", ["", "x", "a" * 51, "<script>", "123 Things", "Foo_Bar", "Food; DROP TABLE", "  ", "Pets!", 42]
)
def test_category_names_are_validated(categories, shopper, name):  # noqa: F811
    with pytest.raises(Invalid) as refused:
        service.add_category(shopper, name)

    assert refused.value.details[0]["field"] == "name"


def test_a_description_is_plain_text_of_bounded_length(categories, shopper):  # noqa: F811
    with pytest.raises(Invalid):
        service.add_category(shopper, "Pet Supplies", "x" * 501)
    with pytest.raises(Invalid):
        service.add_category(shopper, "Pet Supplies", "a\x00b")


def test_only_signed_in_users_add_categories(categories):  # noqa: F811
    with pytest.raises(Unauthorized):
        service.add_category(Actor(guest_id="g"), "Pet Supplies")


def test_the_shared_list_has_a_ceiling(categories, shopper, monkeypatch):  # noqa: F811
    monkeypatch.setattr(service, "MAX_CATEGORIES", count())

    with pytest.raises(Conflict):
        service.add_category(shopper, "Pet Supplies")


# an owner's receipt items ------------------------------------------------------------------------------------


def test_the_owner_sets_an_items_category_and_it_becomes_a_known_item(categories, shopper):  # noqa: F811
    item = make_receipt_item(shopper.user, "XQZT PLORB")

    updated = service.set_item_category(shopper, item.id, categories["Snacks"].id)

    assert (updated.category_id, updated.category_method, updated.confidence) == (
        categories["Snacks"].id,
        "manual",
        1.0,
    )
    answer = categorize.categorize_item(shopper, "xqzt plorb")
    assert (answer["category_name"], answer["match_method"]) == ("Snacks", "exact")


def test_another_users_item_is_not_found(categories, shopper):  # noqa: F811
    item = make_receipt_item(make_user("other@example.com"), "MILO")

    with pytest.raises(NotFound):
        service.set_item_category(shopper, item.id, categories["Beverages"].id)
    db.session.refresh(item)
    assert item.category_id is None


@pytest.mark.parametrize("item_id", [0, -1, 2**31, 10**20, 999])
def test_item_ids_that_cannot_exist_are_not_found(categories, shopper, item_id):  # noqa: F811
    with pytest.raises(NotFound):
        service.set_item_category(shopper, item_id, categories["Beverages"].id)


def test_an_item_cannot_be_put_in_a_retired_or_missing_category(categories, shopper):  # noqa: F811
    item = make_receipt_item(shopper.user)
    categories["Toys"].is_active = False
    db.session.commit()

    for category_id in (categories["Toys"].id, 999, 2**40):
        with pytest.raises(NotFound):
            service.set_item_category(shopper, item.id, category_id)


def test_guests_have_no_receipt_items(categories):  # noqa: F811
    with pytest.raises(Unauthorized):
        service.set_item_category(Actor(guest_id="g"), 1, 1)
