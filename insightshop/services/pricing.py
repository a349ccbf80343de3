"""Prices: the one place that says what a product costs now. Money is Decimal, rounded half-up to cents."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from ..models.catalog import Product

CENT = Decimal("0.01")


def quantize(amount: Decimal) -> Decimal:
    """Round money to cents, half up."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def effective_price(product: Product) -> Decimal:
    """What one unit costs today, read from the database (never from a request)."""
    return quantize(product.price)


def line_total(unit_price: Decimal, quantity: int) -> Decimal:
    return quantize(unit_price * quantity)
