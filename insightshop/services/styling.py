"""Outfit suggestions from the shop's own matching rules: what type goes with what, which colours go together."""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from . import catalog
from .errors import Invalid

TOPS = ("shirt", "t-shirt", "polo", "blouse", "sweater", "hoodie")
BOTTOMS = ("jeans", "pants", "shorts", "skirt")
OUTERWEAR = ("jacket", "coat")
GOES_WITH = {
    **dict.fromkeys(TOPS, BOTTOMS + OUTERWEAR + ("sneakers",)),
    **dict.fromkeys(BOTTOMS, TOPS + ("sneakers",)),
    **dict.fromkeys(OUTERWEAR, TOPS + BOTTOMS),
    "dress": ("jacket", "coat", "sneakers"),
    "sneakers": ("socks", "jeans", "pants", "t-shirt"),
    "socks": ("sneakers",),
    "pajamas": ("socks",),
}
NEUTRALS = {"white", "black", "grey", "navy", "beige"}
PAIRS = {
    "white": {"navy", "blue", "black", "beige", "red", "green", "pink", "brown"},
    "navy": {"white", "beige", "grey", "pink", "yellow"},
    "blue": {"white", "beige", "grey", "navy", "brown"},
    "beige": {"white", "navy", "brown", "green", "blue"},
    "black": {"white", "grey", "red", "pink"},
    "grey": {"navy", "black", "white", "pink", "yellow"},
    "red": {"white", "navy", "black", "beige"},
    "green": {"beige", "white", "navy", "brown"},
    "pink": {"grey", "white", "navy"},
    "yellow": {"navy", "grey", "white"},
    "brown": {"beige", "white", "blue", "green"},
    "purple": {"grey", "white", "black"},
    "orange": {"navy", "white", "blue"},
}


def colours_for(color: str) -> set[str]:
    """Colours that go with a colour (its classic partners and the neutrals)."""
    return PAIRS.get(color, set()) | NEUTRALS - {color} | ({color} if color in NEUTRALS else set())


def suggest_outfit(product_id: int, limit: int = 4) -> tuple[Product, list[Product], str]:
    """Products that complete an outfit with this one: a matching type, a colour that goes, the same department."""
    base = catalog.get_product(product_id)
    kinds = GOES_WITH.get(base.clothing_type, ())
    if not kinds:
        raise Invalid(f"I have no outfit ideas for {base.clothing_type} yet")
    colours = colours_for(base.color)
    in_stock = select(ProductVariant.product_id).where(ProductVariant.stock > 0)
    statement = (
        select(Product)
        .where(Product.is_active, Product.category == base.category, Product.clothing_type.in_(kinds),
               Product.color.in_(colours), Product.id.in_(in_stock), Product.id != base.id)
        .order_by(Product.rating.desc(), Product.rating_count.desc(), Product.id)
    )  # fmt: skip
    picks: list[Product] = []
    for candidate in db.session.scalars(statement.limit(40)):
        if sum(p.clothing_type == candidate.clothing_type for p in picks) < 2:  # variety over one type
            picks.append(candidate)
        if len(picks) == limit:
            break
    reason = f"{base.color.capitalize()} {base.clothing_type} goes well with " + ", ".join(
        sorted({f"{p.color} {p.clothing_type}" for p in picks})
    )
    return base, picks, reason
