"""Orders with line snapshots and status history; payment attempts; return requests."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .base import Money, TimestampMixin, UTCDateTime, utcnow

ORDER_STATUSES = ("pending", "paid", "processing", "shipped", "delivered", "cancelled")
# Which status may follow which; anything else is refused.
ORDER_TRANSITIONS = {
    "pending": ("paid", "cancelled"),
    "paid": ("processing", "shipped", "cancelled"),
    "processing": ("shipped", "cancelled"),
    "shipped": ("delivered",),
    "delivered": (),
    "cancelled": (),
}


class Order(TimestampMixin, db.Model):
    __tablename__ = "orders"
    __table_args__ = (
        UniqueConstraint("idempotency_key"),
        CheckConstraint("total >= 0", name="total_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    email: Mapped[str] = mapped_column(String(255), index=True)
    cart_guest_id: Mapped[str | None] = mapped_column(String(64), index=True)  # the guest whose cart became this order
    # A hash of the client address that placed it: a guest's unpaid orders are capped per client (services.orders).
    hold_client: Mapped[str | None] = mapped_column(String(64), index=True)
    guest_token: Mapped[str] = mapped_column(String(64), unique=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(128))
    # A hash of the checkout request: the same Idempotency-Key with another body is refused, not replayed.
    checkout_fingerprint: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    shipping_name: Mapped[str] = mapped_column(String(255))
    shipping_address: Mapped[str] = mapped_column(String(500))
    shipping_city: Mapped[str] = mapped_column(String(100))
    shipping_state: Mapped[str] = mapped_column(String(100))
    shipping_zip: Mapped[str] = mapped_column(String(20))
    shipping_country: Mapped[str] = mapped_column(String(50), default="US")
    shipping_phone: Mapped[str | None] = mapped_column(String(30))
    shipping_method: Mapped[str] = mapped_column(String(16), default="standard")
    subtotal: Mapped[Decimal] = mapped_column(Money)
    discount: Mapped[Decimal] = mapped_column(Money, default=Decimal("0.00"))
    tax: Mapped[Decimal] = mapped_column(Money, default=Decimal("0.00"))
    shipping: Mapped[Decimal] = mapped_column(Money, default=Decimal("0.00"))
    total: Mapped[Decimal] = mapped_column(Money)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    tracking_number: Mapped[str | None] = mapped_column(String(100), unique=True)
    carrier: Mapped[str | None] = mapped_column(String(50))
    payment_provider: Mapped[str | None] = mapped_column(String(16))
    payment_intent_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    payment_method: Mapped[str | None] = mapped_column(String(64))
    paid_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    items: Mapped[list[OrderItem]] = relationship(
        back_populates="order", cascade="all, delete-orphan", order_by="OrderItem.id", lazy="selectin"
    )
    events: Mapped[list[OrderEvent]] = relationship(
        back_populates="order", cascade="all, delete-orphan", order_by="OrderEvent.id", lazy="selectin"
    )

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None

    @property
    def item_count(self) -> int:
        return sum(item.quantity for item in self.items)

    def can_change_to(self, status: str) -> bool:
        return status in ORDER_TRANSITIONS.get(self.status, ())

    @property
    def items_subtotal(self) -> Decimal:
        """What the lines add up to at the prices paid (sales taken off): the subtotal every page, mail, PDF and
        API answer shows; `subtotal` keeps the list prices' sum and `discount` what sales took off it."""
        return self.subtotal - self.discount

    @property
    def next_statuses(self) -> tuple[str, ...]:
        """The statuses this order may still move to (none once delivered or cancelled)."""
        return ORDER_TRANSITIONS.get(self.status, ())

    def can_pay(self) -> bool:
        return self.status == "pending" and not self.is_paid

    @property
    def is_test_payment(self) -> bool:
        """Paid through the offline test provider: no money moved."""
        return self.is_paid and self.payment_provider == "offline"


class OrderItem(db.Model):
    __tablename__ = "order_items"
    __table_args__ = (CheckConstraint("quantity >= 1", name="quantity_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    product_id: Mapped[int | None] = mapped_column(ForeignKey("products.id", ondelete="SET NULL"))
    variant_id: Mapped[int | None] = mapped_column(ForeignKey("product_variants.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(255))
    sku: Mapped[str] = mapped_column(String(64))
    color: Mapped[str] = mapped_column(String(32))
    size: Mapped[str] = mapped_column(String(8))
    list_price: Mapped[Decimal] = mapped_column(Money)
    unit_price: Mapped[Decimal] = mapped_column(Money)
    quantity: Mapped[int] = mapped_column(Integer)
    line_total: Mapped[Decimal] = mapped_column(Money)
    returned_quantity: Mapped[int] = mapped_column(Integer, default=0)

    order: Mapped[Order] = relationship(back_populates="items")


class OrderEvent(db.Model):
    __tablename__ = "order_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(String(500), default="")
    actor: Mapped[str] = mapped_column(String(255), default="system")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    order: Mapped[Order] = relationship(back_populates="events")


class PaymentLog(db.Model):
    """Every payment attempt, refund and provider event: never a full card number."""

    __tablename__ = "payment_logs"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id", ondelete="SET NULL"), index=True)
    provider: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16), default="payment")
    amount: Mapped[Decimal] = mapped_column(Money)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    status: Mapped[str] = mapped_column(String(32))
    intent_id: Mapped[str | None] = mapped_column(String(255), index=True)
    event_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    card_brand: Mapped[str | None] = mapped_column(String(32))
    card_last4: Mapped[str | None] = mapped_column(String(4))
    error_message: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ReturnRequest(TimestampMixin, db.Model):
    __tablename__ = "return_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="requested")  # requested, approved, rejected
    refund_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal("0.00"))
    decided_by: Mapped[str | None] = mapped_column(String(255))
    decision_note: Mapped[str | None] = mapped_column(Text)

    order: Mapped[Order] = relationship()
    items: Mapped[list[ReturnItem]] = relationship(
        cascade="all, delete-orphan", lazy="selectin", order_by="ReturnItem.id"
    )


class ReturnItem(db.Model):
    __tablename__ = "return_items"

    id: Mapped[int] = mapped_column(primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("return_requests.id", ondelete="CASCADE"), index=True)
    order_item_id: Mapped[int] = mapped_column(ForeignKey("order_items.id", ondelete="CASCADE"))
    quantity: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(500))

    order_item: Mapped[OrderItem] = relationship(lazy="joined")
