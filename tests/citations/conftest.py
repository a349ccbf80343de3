"""Two receipts of one shopper: the shop's own order receipt and an uploaded text receipt (read inline)."""

import io
from dataclasses import dataclass

import pytest

from insightshop.extensions import db
from insightshop.models.receipts import Receipt
from insightshop.services.actors import Actor
from tests.factories import bearer, make_paid_order, make_product, make_user
from tests.receipts.conftest import SHOP_RECEIPT


@dataclass
class Library:
    user: object
    headers: dict
    order_receipt: Receipt
    upload: Receipt

    @property
    def actor(self) -> Actor:
        return Actor(user=self.user)


def upload(client, headers, text: str, name: str) -> int:
    response = client.post("/api/receipts", headers=headers, data={"file": (io.BytesIO(text.encode()), name)},
                           content_type="multipart/form-data")  # fmt: skip
    assert response.status_code == 201, response.get_json()
    return response.get_json()["receipt"]["id"]


@pytest.fixture
def library(app, client) -> Library:
    app.config["RECEIPT_QUEUE"] = "inline"
    user = make_user()
    order = make_paid_order(Actor(user=user), make_product("Wool Coat", price="120.00"))
    headers = bearer(client)
    upload_id = upload(client, headers, SHOP_RECEIPT, "corner-market.txt")
    order_receipt = db.session.query(Receipt).filter_by(order_id=order.id).one()
    return Library(user, headers, order_receipt, db.session.get(Receipt, upload_id))
