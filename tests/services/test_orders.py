import threading
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import Order, PaymentLog
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.errors import Conflict, Invalid, NotFound
from insightshop.services.payments import offline
from tests.factories import make_product, make_user

ADDRESS = dict(email="sam@example.com", shipping_name="Sam Shopper", shipping_address="1 Main St", shipping_city="Springfield",
               shipping_state="IL", shipping_zip="62701")  # fmt: skip


def details(**changes):
    return orders.ShippingDetails(**{**ADDRESS, **changes})


@pytest.fixture
def shopper():
    return Actor(user=make_user())


def test_placing_an_order_snapshots_lines_takes_stock_and_computes_totals(app, shopper):
    app.config.update(TAX_RATE="0.08", FREE_SHIPPING_FROM="75.00", SHIPPING_STANDARD="5.95")
    shirt = make_product("Oxford Shirt", sizes=("L",), stock=5, price="29.99")
    cart.add_item(shopper, shirt.id, 2)

    order = orders.place_order(shopper, details())

    [item] = order.items
    assert (item.name, item.sku, item.color, item.size, item.unit_price, item.quantity) == (
        "Oxford Shirt", shirt.variants[0].sku, "white", "L", Decimal("29.99"), 2)  # fmt: skip
    assert (order.subtotal, order.discount, order.shipping, order.tax, order.total) == (
        Decimal("59.98"), Decimal("0.00"), Decimal("5.95"), Decimal("4.80"), Decimal("70.73"))  # fmt: skip
    assert order.status == "pending" and order.events[0].note == "Order placed"
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 3
    shirt.price = Decimal("99.00")  # later price changes never touch the order
    db.session.commit()
    assert db.session.get(Order, order.id).items[0].unit_price == Decimal("29.99")


def test_an_empty_cart_cannot_check_out(shopper):
    with pytest.raises(Invalid) as error:
        orders.place_order(shopper, details())
    assert error.value.code == "cart_empty"


def test_a_retried_checkout_with_the_same_key_returns_the_same_order(shopper):
    shirt = make_product(sizes=("L",), stock=5)
    cart.add_item(shopper, shirt.id, 1)

    first = orders.place_order(shopper, details(), "key-123456")
    second = orders.place_order(shopper, details(), "key-123456")

    assert first.id == second.id
    assert db.session.query(Order).count() == 1
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 4


def test_idempotency_keys_belong_to_one_customer(shopper):
    shirt = make_product(sizes=("L",), stock=5)
    other = Actor(user=make_user("other@example.com"))
    cart.add_item(shopper, shirt.id, 1)
    cart.add_item(other, shirt.id, 1)

    mine = orders.place_order(shopper, details(), "same-key-0001")
    theirs = orders.place_order(other, details(email="other@example.com"), "same-key-0001")

    assert mine.id != theirs.id


@pytest.mark.commits
def test_two_concurrent_checkouts_for_the_last_unit_give_one_order(app):
    product = make_product("Last One", sizes=("L",), stock=1)
    buyers = [make_user(f"buyer{i}@example.com") for i in range(2)]
    for buyer in buyers:
        cart.add_item(Actor(user=buyer), product.id, 1)
    buyer_ids = [b.id for b in buyers]
    results, barrier = {}, threading.Barrier(2)

    def checkout(user_id):
        with app.app_context():
            from insightshop.models.accounts import User

            actor = Actor(user=db.session.get(User, user_id))
            barrier.wait()
            try:
                results[user_id] = orders.place_order(actor, details(email=actor.user.email)).id
            except Conflict as error:
                results[user_id] = error
            finally:
                db.session.remove()

    threads = [threading.Thread(target=checkout, args=(user_id,)) for user_id in buyer_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    outcomes = list(results.values())
    assert len(outcomes) == 2
    assert sum(isinstance(o, int) for o in outcomes) == 1
    [refusal] = [o for o in outcomes if isinstance(o, Conflict)]
    assert refusal.code == "out_of_stock" and "out of stock" in refusal.message
    db.session.expire_all()
    assert db.session.get(ProductVariant, product.variants[0].id).stock == 0
    assert db.session.query(Order).count() == 1


def test_offline_payment_success_marks_paid_and_empties_the_cart(shopper):
    shirt = make_product(sizes=("L",), stock=5)
    cart.add_item(shopper, shirt.id, 2)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)

    offline.confirm(order, "4242 4242 4242 4242")

    assert order.status == "paid" and order.paid_at is not None
    assert order.payment_method == "Visa •••• 4242 (test)"
    assert db.session.query(CartItem).count() == 0
    with pytest.raises(Conflict) as again:
        offline.confirm(order, "4242424242424242")
    assert again.value.code == "already_paid"


@pytest.mark.parametrize(("card", "message"), [
    ("4000 0000 0000 0002", "Your card was declined."),
    ("4000 0000 0000 9995", "Your card has insufficient funds."),
])  # fmt: skip
def test_declined_cards_leave_the_order_pending_and_the_cart_intact(shopper, card, message):
    shirt = make_product(sizes=("L",), stock=5)
    cart.add_item(shopper, shirt.id, 2)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)

    with pytest.raises(Conflict) as error:
        offline.confirm(order, card)

    assert error.value.message == message and error.value.code == "payment_declined"
    assert order.status == "pending" and not order.is_paid
    assert cart.get_cart(shopper).item_count == 2
    logs = db.session.query(PaymentLog).filter(PaymentLog.status != "requires_payment_method").all()
    assert [(log.card_last4, log.status) for log in logs] == [(card.replace(" ", "")[-4:], logs[0].status)]
    assert all(card.replace(" ", "") not in str(vars(log)) for log in logs)  # never the full number


def test_invalid_card_numbers_are_rejected_before_any_attempt(shopper):
    shirt = make_product(sizes=("L",))
    cart.add_item(shopper, shirt.id, 1)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)

    with pytest.raises(Invalid):
        offline.confirm(order, "4242 4242 4242 4241")


def test_orders_are_private_to_their_owner(shopper):
    shirt = make_product(sizes=("L",))
    cart.add_item(shopper, shirt.id, 1)
    order = orders.place_order(shopper, details())

    assert orders.get_order(shopper, order.id) == order
    assert orders.get_order(Actor(), order.id, order.guest_token) == order
    for stranger, token in ((Actor(user=make_user("x@example.com")), None), (Actor(guest_id="g"), "wrong")):
        with pytest.raises(NotFound):
            orders.get_order(stranger, order.id, token)


def test_status_lookup_gives_one_answer_for_wrong_email_and_missing_order(shopper):
    shirt = make_product(sizes=("L",))
    cart.add_item(shopper, shirt.id, 1)
    order = orders.place_order(shopper, details())

    assert orders.order_status(order.id, "SAM@example.com ") == order
    messages = set()
    for order_id, email in ((order.id, "someone@else.com"), (order.id + 99, "sam@example.com")):
        with pytest.raises(NotFound) as error:
            orders.order_status(order_id, email)
        messages.add(error.value.message)
    assert len(messages) == 1


def test_cancelling_restocks_and_only_allowed_transitions_happen(shopper):
    shirt = make_product(sizes=("L",), stock=3)
    cart.add_item(shopper, shirt.id, 2)
    order = orders.place_order(shopper, details())

    with pytest.raises(Conflict):
        orders.set_status(order, "delivered", actor_label="admin")
    orders.cancel_order(order, actor_label="admin")

    assert order.status == "cancelled"
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 3
    with pytest.raises(Conflict):
        orders.set_status(order, "pending", actor_label="admin")


def test_a_new_checkout_releases_the_stock_of_the_carts_unpaid_order(shopper):
    shirt = make_product(sizes=("L",), stock=2)
    cart.add_item(shopper, shirt.id, 2)
    abandoned = orders.place_order(shopper, details())

    newer = orders.place_order(shopper, details(shipping_method="express"))

    assert abandoned.status == "cancelled" and abandoned.events[-1].note == "Replaced by a newer checkout"
    assert newer.status == "pending"
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 0
