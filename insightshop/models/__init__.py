"""SQLAlchemy models, one module per domain. Importing this package registers them all."""

from .accounts import ApiToken, User
from .cart import CartItem, WishlistItem
from .catalog import Product, ProductVariant
from .reviews import Review

__all__ = ["ApiToken", "CartItem", "Product", "ProductVariant", "Review", "User", "WishlistItem"]
