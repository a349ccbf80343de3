from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.services import cart
from insightshop.services.actors import Actor, Unauthorized
from insightshop.services.errors import Conflict, Invalid, NotFound
from tests.factories import make_product, make_user


@pytest.fixture
def shopper():
    return Actor(user=make_user())


def test_add_item_resolves_the_variant_and_totals_from_database_prices(shopper):
    shirt = make_product("Oxford Shirt", colors=("white", "navy"), sizes=("M", "L"), stock=5, price="19.99")
    socks = make_product("Socks", clothing_type="socks", sizes=("M",), price="7.50")

    cart.add_item(shopper, shirt.id, 3, "White", "large")
    cart.add_item(shopper, socks.id, 1)  # one colour, one size: nothing to choose

    current = cart.get_cart(shopper)
    assert [(line.variant.color, line.variant.size, line.item.quantity) for line in current.lines] == [
        ("white", "L", 3), ("white", "M", 1)]  # fmt: skip
    assert current.subtotal == Decimal("67.47")
    assert current.item_count == 4


def test_a_product_with_choices_needs_colour_and_size(shopper):
    shirt = make_product("Oxford Shirt", colors=("white", "navy"), sizes=("M", "L"))

    with pytest.raises(Invalid) as error:
        cart.add_item(shopper, shirt.id, 1, "white")

    assert error.value.code == "variant_required"
    assert error.value.details[0]["field"] == "selected_size"
    assert db.session.query(CartItem).count() == 0


def test_a_line_holds_at_most_ten(shopper):
    product = make_product(sizes=("L",), stock=40)
    cart.add_item(shopper, product.id, 6)

    with pytest.raises(Invalid) as error:
        cart.add_item(shopper, product.id, 5)

    assert error.value.code == "quantity_limit"
    assert cart.get_cart(shopper).item_count == 6


def test_stock_is_checked_against_the_variant(shopper):
    product = make_product("Oxford Shirt", sizes=("L",), stock={"white/L": 1})
    cart.add_item(shopper, product.id, 1)

    with pytest.raises(Conflict) as error:
        cart.add_item(shopper, product.id, 1)

    assert error.value.code == "out_of_stock"
    assert error.value.message == "Only 1 left of Oxford Shirt (White / L)"


def test_update_remove_and_clear(shopper):
    product = make_product(sizes=("S", "M"), stock=9)
    line = cart.add_item(shopper, product.id, 2, size="S")
    cart.add_item(shopper, product.id, 1, size="M")

    cart.update_quantity(shopper, line.item.id, 7)
    assert cart.get_cart(shopper).item_count == 8
    assert cart.remove_item(shopper, line.item.id, quantity=2) == 5
    assert cart.remove_item(shopper, line.item.id) == 0
    assert cart.clear_cart(shopper) == 1
    assert cart.get_cart(shopper).is_empty


def test_nobody_touches_another_owners_line(shopper):
    product = make_product(sizes=("L",))
    line = cart.add_item(shopper, product.id, 1)
    stranger = Actor(user=make_user("other@example.com"))
    guest = Actor(guest_id="guest-1")

    for actor in (stranger, guest):
        with pytest.raises(NotFound):
            cart.update_quantity(actor, line.item.id, 2)
        with pytest.raises(NotFound):
            cart.remove_item(actor, line.item.id)
    assert cart.get_cart(shopper).item_count == 1
    with pytest.raises(Unauthorized):
        cart.add_item(Actor(), product.id, 1)


def test_guest_cart_merges_into_the_users_cart_capped_by_stock_and_ten(shopper):
    scarce = make_product("Scarce Tee", clothing_type="t-shirt", sizes=("M",), stock=4)
    plenty = make_product("Plenty Tee", clothing_type="t-shirt", sizes=("M",), stock=40)
    only_guest = make_product("Guest Socks", clothing_type="socks", sizes=("M",), stock=5)
    guest = Actor(guest_id="guest-abc")
    cart.add_item(shopper, scarce.id, 3)
    cart.add_item(shopper, plenty.id, 8)
    cart.add_item(guest, scarce.id, 3)
    cart.add_item(guest, plenty.id, 5)
    cart.add_item(guest, only_guest.id, 2)

    cart.merge_guest_cart("guest-abc", shopper.user.id)

    quantities = {line.product.name: line.item.quantity for line in cart.get_cart(shopper).lines}
    assert quantities == {"Scarce Tee": 4, "Plenty Tee": 10, "Guest Socks": 2}
    assert cart.get_cart(guest).is_empty
