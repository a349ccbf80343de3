"""Receipts: reading documents (text, PDF, OCR), extraction engines, validation and categorisation."""
