"""Receipts for API clients: upload, list with filters, read (with seed 000's result), file, re-read, delete."""

from __future__ import annotations

from flask import request

from ...schemas.receipts import RECEIPT_LIST_PARAMS, agent_response, filters_from, receipt_to_dict
from ...schemas.validation import validate
from ...services.errors import Invalid
from ...services.receipts import library, uploads
from ...web.auth import current_actor
from ...web.receipt_files import file_response
from ...web.request_guard import accepts_uploads
from . import api


def _result(receipt) -> dict | None:
    return agent_response(receipt) if not receipt.is_pending else None


@api.post("/receipts")
@accepts_uploads
def upload_receipt():
    upload = request.files.get("file")
    if upload is None:
        raise Invalid("Send the receipt as multipart/form-data in a field named file",
                      details=[{"field": "file", "message": "required"}])  # fmt: skip
    receipt = uploads.upload_receipt(current_actor(), upload.filename, upload.read())
    return {"receipt": receipt_to_dict(receipt), "result": _result(receipt)}, 202 if receipt.is_pending else 201


@api.get("/receipts")
def list_receipts():
    params = validate(request.args.to_dict(), RECEIPT_LIST_PARAMS, what="receipt filters")
    found = library.list_receipts(current_actor(), filters_from(params), page=int(params.get("page", 1)),
                                  per_page=int(params.get("per_page", 20)))  # fmt: skip
    return {
        "receipts": [receipt_to_dict(receipt, full=False) for receipt in found.receipts],
        "pagination": {
            "page": found.page,
            "per_page": found.per_page,
            "total": found.total,
            "pages": found.pages,
            "has_next": found.page < found.pages,
            "has_prev": found.page > 1,
        },  # fmt: skip
    }


@api.get("/receipts/<int:receipt_id>")
def get_receipt(receipt_id: int):
    receipt = library.get_receipt(current_actor(), receipt_id)
    return {"receipt": receipt_to_dict(receipt), "result": _result(receipt)}


@api.get("/receipts/<int:receipt_id>/file")
def receipt_file(receipt_id: int):
    path, receipt = library.receipt_file(current_actor(), receipt_id)
    return file_response(path, receipt)


@api.post("/receipts/<int:receipt_id>/reprocess")
def reprocess_receipt(receipt_id: int):
    receipt = library.reprocess_receipt(current_actor(), receipt_id)
    return {"receipt": receipt_to_dict(receipt), "result": _result(receipt)}, 202 if receipt.is_pending else 200


@api.delete("/receipts/<int:receipt_id>")
def delete_receipt(receipt_id: int):
    library.delete_receipt(current_actor(), receipt_id)
    return {"deleted": True, "id": receipt_id}
