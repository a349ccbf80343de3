"""An admin's price changes over a set of products: by a percent, by an amount, or to a price — planned (every
product's old and new price, nothing written) and then applied in one transaction. Money is Decimal; a percent
change is rounded to the cent, half up (pricing.quantize)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from sqlalchemy import select

from ..extensions import db
from ..models.catalog import Product
from . import audit
from .errors import Invalid, NotFound
from .pricing import HUNDRED, quantize

ROUNDING_RULE = "rounded to the cent, half up"
MAX_PRODUCTS = 60
MIN_PRICE, MAX_PRICE = Decimal("0.01"), Decimal("100000")


@dataclass
class PriceChange:
    product: Product
    old: Decimal
    new: Decimal


def _decimal(value, field: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        number = Decimal("NaN")
    if not number.is_finite():
        raise Invalid(f"{field} must be a number", details=[{"field": field, "message": "a number"}])
    return number


def new_price(old: Decimal, *, percent=None, amount=None, set_to=None) -> Decimal:
    """The price after one change: percent (+10 raises by 10%, -10 lowers), amount (+5, -5) or set_to."""
    if set_to is not None:
        return quantize(_decimal(set_to, "set_to"))
    if percent is not None:
        return quantize(old * (HUNDRED + _decimal(percent, "percent")) / HUNDRED)
    return quantize(old + _decimal(amount, "amount"))


def plan_price_change(product_ids: list[int], *, percent=None, amount=None, set_to=None) -> list[PriceChange]:
    """Each product's price now and after the change, in the order given; nothing is written. Refused: not exactly
    one kind of change, an unknown product, a new price below $0.01 or above $100,000."""
    if sum(x is not None for x in (percent, amount, set_to)) != 1:
        raise Invalid("Say one change: percent, amount or set_to",
                      details=[{"field": "percent", "message": "exactly one of percent, amount, set_to"}])  # fmt: skip
    ids = list(dict.fromkeys(product_ids))
    if not ids or len(ids) > MAX_PRODUCTS:
        raise Invalid(f"Change 1 to {MAX_PRODUCTS} products at a time",
                      details=[{"field": "product_ids", "message": f"1–{MAX_PRODUCTS}"}])  # fmt: skip
    found = {p.id: p for p in db.session.scalars(select(Product).where(Product.id.in_(ids)))}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"No product #{missing[0]}", details=[{"field": "product_ids", "missing": missing}])
    changes = [PriceChange(found[i], quantize(found[i].price),
                           new_price(found[i].price, percent=percent, amount=amount, set_to=set_to)) for i in ids]  # fmt: skip
    bad = [c for c in changes if not MIN_PRICE <= c.new <= MAX_PRICE]
    if bad:
        raise Invalid(f"{bad[0].product.name} would cost ${bad[0].new}; a price must be from $0.01 to $100,000",
                      details=[{"field": "product_ids", "product_id": c.product.id, "new_price": str(c.new)}
                               for c in bad])  # fmt: skip
    return changes


def change_prices(actor, product_ids: list[int], *, percent=None, amount=None, set_to=None) -> list[PriceChange]:
    """Apply one price change to every product of the set (all or none), audited per product."""
    changes = plan_price_change(product_ids, percent=percent, amount=amount, set_to=set_to)
    for change in changes:
        change.product.price = change.new
        audit.record(actor, "product.update", "product", change.product.id, before={"price": str(change.old)},
                     after={"price": str(change.new)})  # fmt: skip
    db.session.commit()
    return changes
