"""Provenance of extracted values: the document's located text blocks, each extracted field with its source,
and every revision of a field (extractions and corrections)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .accounts import User
from .base import TimestampMixin, UTCDateTime, utcnow

BLOCK_TYPES = ("line", "word", "table_row")
EXTRACTION_METHODS = ("ocr_rules", "claude", "manual", "order_record")
CONTEXT_CHARS = 200


class DocumentBlock(db.Model):
    """One located piece of a receipt's text: a line (or word, table row) with its page, box and OCR score."""

    __tablename__ = "document_blocks"
    __table_args__ = (UniqueConstraint("receipt_id", "block_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    receipt_id: Mapped[int] = mapped_column(ForeignKey("receipts.id", ondelete="CASCADE"), index=True)
    block_id: Mapped[str] = mapped_column(String(32))  # stable within the document, e.g. "p1-l12"
    block_type: Mapped[str] = mapped_column(String(16), default="line")
    position: Mapped[int] = mapped_column(Integer)  # 0-based reading order (the TextLine index)
    text: Mapped[str] = mapped_column(Text)
    page: Mapped[int] = mapped_column(Integer, default=1)
    char_offset: Mapped[int] = mapped_column(Integer, default=0)  # where the block starts in the document's text
    # {"x", "y", "width", "height", "page_width", "page_height"} in page pixels; None for plain text files
    bbox: Mapped[dict | None] = mapped_column(JSON)
    confidence: Mapped[float | None] = mapped_column(Float)
    context_before: Mapped[str] = mapped_column(Text, default="")
    context_after: Mapped[str] = mapped_column(Text, default="")


class ExtractedField(TimestampMixin, db.Model):
    """A receipt's value (a field, or an item's attribute such as "items.2.total_price") and where it came from."""

    __tablename__ = "extracted_fields"
    __table_args__ = (UniqueConstraint("receipt_id", "field_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    receipt_id: Mapped[int] = mapped_column(ForeignKey("receipts.id", ondelete="CASCADE"), index=True)
    field_name: Mapped[str] = mapped_column(String(64))
    value: Mapped[str | None] = mapped_column(Text)
    value_type: Mapped[str] = mapped_column(String(16), default="string")  # string, money, date, currency, quantity
    source_block_ids: Mapped[list] = mapped_column(JSON, default=list)
    span_start: Mapped[int | None] = mapped_column(Integer)  # the value's characters in the first source block
    span_end: Mapped[int | None] = mapped_column(Integer)
    extraction_method: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float | None] = mapped_column(Float)
    verified: Mapped[bool] = mapped_column(default=False, server_default=false())
    verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    verified_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    verified_by: Mapped[User | None] = relationship(lazy="joined")
    revisions: Mapped[list[FieldRevision]] = relationship(
        back_populates="field", cascade="all, delete-orphan", order_by="FieldRevision.id", lazy="selectin"
    )


class FieldRevision(db.Model):
    """One event in a field's history: an extraction, a correction or a verification."""

    __tablename__ = "field_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    field_id: Mapped[int] = mapped_column(ForeignKey("extracted_fields.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    method: Mapped[str] = mapped_column(String(24))  # an extraction method, or "verification"
    value: Mapped[str | None] = mapped_column(Text)
    confidence: Mapped[float | None] = mapped_column(Float)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    note: Mapped[str] = mapped_column(String(500), default="")

    field: Mapped[ExtractedField] = relationship(back_populates="revisions")
    actor: Mapped[User | None] = relationship(lazy="joined")
