"""Extraction engines: a ReceiptDocument in, a ReceiptExtraction out."""
