"""SQLAlchemy models, one module per domain. Importing this package registers them all."""

from .catalog import Product, ProductVariant

__all__ = ["Product", "ProductVariant"]
