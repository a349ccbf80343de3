"""Receipts a shopper uploaded (or the shop issued for a paid order), their line items, and spending categories."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    func,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .base import Money, TimestampMixin, UTCDateTime, utcnow

RECEIPT_STATUSES = ("uploaded", "processing", "completed", "needs_review", "failed")
# Statuses in which the receipt's data may be read and corrected by its owner.
RECEIPT_DONE_STATUSES = ("completed", "needs_review")
LOW_CONFIDENCE = 0.7  # below this a value is flagged for the owner's review (seed 000)


class Category(TimestampMixin, db.Model):
    """A spending category; names are Title Case and unique whatever their case."""

    __tablename__ = "categories"
    __table_args__ = (Index("uq_categories_lower_name", func.lower("name"), unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str | None] = mapped_column(String(500))
    is_active: Mapped[bool] = mapped_column(default=True, server_default=true())


class Receipt(TimestampMixin, db.Model):
    __tablename__ = "receipts"
    __table_args__ = (
        CheckConstraint(f"status IN {RECEIPT_STATUSES!r}", name="status_known"),
        Index("ix_receipts_user_id_sha256", "user_id", "sha256"),
        Index("ix_receipts_user_id_purchase_date", "user_id", "purchase_date"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # Set for the receipt the shop issued for a paid order (method order_record); one per order.
    order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id", ondelete="SET NULL"), unique=True)
    original_filename: Mapped[str] = mapped_column(String(255))
    stored_name: Mapped[str | None] = mapped_column(String(80), unique=True)  # random; outside static/
    content_type: Mapped[str] = mapped_column(String(100))
    size_bytes: Mapped[int] = mapped_column(Integer, default=0)
    sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="uploaded", index=True)
    method: Mapped[str | None] = mapped_column(String(16))  # how the text was read: text, pdf_text, ocr, order_record
    raw_text: Mapped[str | None] = mapped_column(Text)
    merchant_name: Mapped[str | None] = mapped_column(String(255))
    merchant_address: Mapped[str | None] = mapped_column(String(500))
    purchase_date: Mapped[date | None] = mapped_column(Date)
    currency: Mapped[str | None] = mapped_column(String(3))
    subtotal: Mapped[Decimal | None] = mapped_column(Money)
    tax_amount: Mapped[Decimal | None] = mapped_column(Money)
    total_amount: Mapped[Decimal | None] = mapped_column(Money)
    confidence: Mapped[float | None] = mapped_column(Float)
    field_confidence: Mapped[dict] = mapped_column(JSON, default=dict)  # field name -> 0..1
    processing_time_ms: Mapped[int | None] = mapped_column(Integer)
    agent_version: Mapped[str | None] = mapped_column(String(64))
    errors: Mapped[list] = mapped_column(JSON, default=list)
    warnings: Mapped[list] = mapped_column(JSON, default=list)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    blocks: Mapped[list[DocumentBlock]] = relationship(  # noqa: F821 (models.citations)
        cascade="all, delete-orphan", order_by="DocumentBlock.position", lazy="select"
    )
    fields: Mapped[list[ExtractedField]] = relationship(  # noqa: F821 (models.citations)
        cascade="all, delete-orphan", order_by="ExtractedField.id", lazy="select"
    )
    items: Mapped[list[ReceiptItem]] = relationship(
        back_populates="receipt", cascade="all, delete-orphan", order_by="ReceiptItem.line_number", lazy="selectin"
    )

    @property
    def is_done(self) -> bool:
        return self.status in RECEIPT_DONE_STATUSES

    @property
    def is_pending(self) -> bool:
        return self.status in ("uploaded", "processing")


class ReceiptItem(db.Model):
    __tablename__ = "receipt_items"

    id: Mapped[int] = mapped_column(primary_key=True)
    receipt_id: Mapped[int] = mapped_column(ForeignKey("receipts.id", ondelete="CASCADE"), index=True)
    line_number: Mapped[int] = mapped_column(Integer)
    item_name: Mapped[str] = mapped_column(String(255))
    quantity: Mapped[Decimal | None] = mapped_column(Numeric(10, 3, asdecimal=True))
    unit_price: Mapped[Decimal | None] = mapped_column(Money)
    total_price: Mapped[Decimal] = mapped_column(Money)
    category_id: Mapped[int | None] = mapped_column(ForeignKey("categories.id", ondelete="SET NULL"), index=True)
    # How the category was chosen: exact, keyword, fuzzy, manual, claude; None while uncategorised.
    category_method: Mapped[str | None] = mapped_column(String(16))
    confidence: Mapped[float | None] = mapped_column(Float)

    receipt: Mapped[Receipt] = relationship(back_populates="items")
    category: Mapped[Category | None] = relationship(lazy="joined")


class ReceiptFile(db.Model):
    """An uploaded receipt's bytes, kept in the database so every app server and receipt worker can read them
    (the files on a machine's disk are only a cache of these)."""

    __tablename__ = "receipt_files"

    stored_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
