from datetime import timedelta
from decimal import Decimal

import pytest

from insightshop.extensions import db
from insightshop.models.base import utcnow
from insightshop.models.catalog import ProductVariant
from insightshop.models.orders import PaymentLog
from insightshop.services import cart, orders, returns
from insightshop.services.actors import Actor
from insightshop.services.errors import Conflict, Forbidden, Invalid
from insightshop.services.payments import offline
from tests.factories import make_product, make_user
from tests.services.test_orders import details


@pytest.fixture
def delivered(app):
    app.config.update(TAX_RATE="0.10", FREE_SHIPPING_FROM="10.00")
    shopper = Actor(user=make_user())
    shirt = make_product(sizes=("L",), stock=5, price="40.00")
    cart.add_item(shopper, shirt.id, 2)
    order = orders.place_order(shopper, details())
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")
    for status in ("processing", "shipped", "delivered"):
        orders.set_status(order, status, actor_label="admin")
    return shopper, order, shirt


def test_approving_a_return_restocks_and_refunds_goods_with_their_tax(delivered):
    shopper, order, shirt = delivered
    request = returns.request_return(
        shopper, order.id, [{"order_item_id": order.items[0].id, "quantity": 1, "reason": "Too small"}]
    )
    admin = Actor(user=make_user("admin@example.com", admin=True))

    approved = returns.decide_return(admin, request.id, True, "OK")

    assert approved.status == "approved" and approved.refund_amount == Decimal("44.00")
    assert order.items[0].returned_quantity == 1
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 4
    refund = db.session.query(PaymentLog).filter_by(kind="refund").one()
    assert (refund.amount, refund.status) == (Decimal("44.00"), "succeeded")


def test_returns_need_a_delivered_order_within_the_window_and_sane_quantities(delivered):
    shopper, order, _ = delivered
    item_id = order.items[0].id

    with pytest.raises(Invalid):
        returns.request_return(shopper, order.id, [{"order_item_id": item_id, "quantity": 3, "reason": "x" * 5}])
    with pytest.raises(Invalid):
        returns.request_return(shopper, order.id, [{"order_item_id": 999, "quantity": 1, "reason": "wrong"}])
    order.delivered_at = utcnow() - timedelta(days=31)
    db.session.commit()
    with pytest.raises(Conflict):
        returns.request_return(shopper, order.id, [{"order_item_id": item_id, "quantity": 1, "reason": "late"}])


def test_only_admins_decide_and_only_once(delivered):
    shopper, order, _ = delivered
    request = returns.request_return(
        shopper, order.id, [{"order_item_id": order.items[0].id, "quantity": 2, "reason": "Colour"}]
    )
    admin = Actor(user=make_user("admin@example.com", admin=True))

    with pytest.raises(Forbidden):
        returns.decide_return(shopper, request.id, True)
    returns.decide_return(admin, request.id, False, "Worn")
    with pytest.raises(Conflict):
        returns.decide_return(admin, request.id, True)
    assert order.items[0].returned_quantity == 0
