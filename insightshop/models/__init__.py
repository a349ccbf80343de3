"""SQLAlchemy models, one module per domain. Importing this package registers them all."""

from .accounts import ApiToken, LoginSession, User
from .audit import AuditEntry
from .cart import CartItem, WishlistItem
from .catalog import Product, ProductVariant
from .citations import DocumentBlock, ExtractedField, FieldRevision
from .conversations import ChatMessage, Conversation, PendingConfirmation
from .orders import Order, OrderEvent, OrderItem, PaymentLog, ReturnItem, ReturnRequest
from .rate_limits import RateLimitCounter
from .receipts import Category, Receipt, ReceiptFile, ReceiptItem
from .reviews import Review
from .sales import Sale

__all__ = [
    "ApiToken", "LoginSession", "AuditEntry", "CartItem", "Category", "Receipt", "ReceiptFile", "ReceiptItem", "DocumentBlock", "ExtractedField", "FieldRevision", "ChatMessage", "Conversation", "PendingConfirmation", "Order",
    "OrderEvent", "OrderItem", "PaymentLog", "Product", "ProductVariant", "RateLimitCounter", "ReturnItem", "ReturnRequest", "Review", "Sale", "User", "WishlistItem",
]  # fmt: skip
