from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.services import reviews, wishlist
from insightshop.services.actors import Actor, Unauthorized
from insightshop.services.compare import compare_products
from insightshop.services.errors import Forbidden, Invalid, NotFound
from tests.factories import make_paid_order, make_product, make_user


def test_ratings_follow_reviews_on_create_edit_and_delete():
    product = make_product(rating="0.0", rating_count=0)
    alice, bob = Actor(user=make_user("alice@example.com")), Actor(user=make_user("bob@example.com"))
    gina = Actor(guest_id="guest-gina")
    for buyer in (alice, bob, gina):
        make_paid_order(buyer, product)

    reviews.save_review(alice, product.id, 5, "Great")
    review, _ = reviews.save_review(bob, product.id, 2, "Meh")
    reviews.save_review(gina, product.id, 4, "Nice", user_name="Guest Gina")
    reviews.save_review(Actor(guest_id="not-a-buyer"), product.id, 1, "Never bought it", user_name="Drive-by")
    assert (product.rating, product.rating_count) == (Decimal("3.7"), 3)

    _, created = reviews.save_review(bob, product.id, 4, "Grew on me")
    assert not created
    assert (product.rating, product.rating_count) == (Decimal("4.3"), 3)

    reviews.delete_review(bob, review.id)
    assert (product.rating, product.rating_count) == (Decimal("4.5"), 2)


def test_guests_sign_reviews_and_ratings_stay_in_range():
    product = make_product()

    with pytest.raises(Unauthorized):  # a guest needs a guest identity
        reviews.save_review(Actor(), product.id, 4, "Nice", user_name="Gina")
    with pytest.raises(Invalid):
        reviews.save_review(Actor(guest_id="gina"), product.id, 4, "Nice")
    for bad in (0, 6, "x", True, float("nan")):
        with pytest.raises(Invalid):
            reviews.save_review(Actor(guest_id="gina"), product.id, bad, "", user_name="Gina")


def test_only_the_author_or_an_admin_deletes_a_review():
    product = make_product()
    author = Actor(user=make_user("author@example.com"))
    review, _ = reviews.save_review(author, product.id, 5)

    with pytest.raises(Forbidden):
        reviews.delete_review(Actor(user=make_user("else@example.com")), review.id)
    reviews.delete_review(Actor(user=make_user("admin@example.com", admin=True)), review.id)
    with pytest.raises(NotFound):
        reviews.delete_review(author, review.id)


def test_wishlist_shows_price_drops_and_back_in_stock():
    shopper = Actor(user=make_user())
    product = make_product(price="80.00", sizes=("M",), stock=0)
    wishlist.add_to_wishlist(shopper, product.id)

    product.price = Decimal("64.00")
    product.variants[0].stock = 3
    db.session.commit()

    [entry] = wishlist.list_wishlist(shopper)
    assert entry.price_drop == Decimal("16.00")
    assert entry.back_in_stock
    wishlist.remove_from_wishlist(shopper, product.id)
    assert wishlist.list_wishlist(shopper) == []


def test_compare_needs_two_to_ten_existing_products():
    a, b = make_product("A"), make_product("B")

    assert [p.name for p in compare_products([b.id, a.id, b.id])] == ["B", "A"]
    with pytest.raises(Invalid):
        compare_products([a.id])
    with pytest.raises(NotFound, match="999"):
        compare_products([a.id, 999])
