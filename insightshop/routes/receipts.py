"""Receipt pages: the shopper's receipts with filters and an upload form, one receipt read live, its file."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_login import login_required

from ..forms.receipts import ReceiptFilterForm, UploadReceiptForm
from ..forms.shop import EmptyForm
from ..services.errors import DomainError
from ..services.receipts import library, uploads
from ..services.receipts.library import ReceiptFilters
from ..web.auth import current_actor
from ..web.forms import show_error
from ..web.receipt_files import file_response
from ..web.receipt_views import receipt_view
from ..web.rendering import render_page
from ..web.request_guard import accepts_uploads

receipt_pages = Blueprint("receipts", __name__)


def _list_page(upload_form: UploadReceiptForm, status: int = 200):
    filter_form = ReceiptFilterForm(request.args)
    filters = ReceiptFilters(**{name: field.data or None for name, field in filter_form._fields.items()}) \
        if filter_form.validate() else ReceiptFilters()  # fmt: skip
    page = request.args.get("page", 1, type=int) or 1
    found = library.list_receipts(current_actor(), filters, page=min(max(page, 1), 100_000))
    return render_page("receipts/list.html", ["receipt_list"], status, found=found, filter_form=filter_form,
                       upload_form=upload_form)  # fmt: skip


@receipt_pages.get("/receipts")
@login_required
def list_receipts():
    return _list_page(UploadReceiptForm())


@receipt_pages.post("/receipts")
@login_required
@accepts_uploads
def upload_receipt():
    form = UploadReceiptForm()
    if form.validate_on_submit():
        try:
            receipt = uploads.upload_receipt(current_actor(), form.file.data.filename, form.file.data.read())
        except DomainError as error:
            show_error(form, error)
        else:
            return redirect(url_for("receipts.show_receipt", receipt_id=receipt.id), 303)
    return _list_page(form, 422)


@receipt_pages.get("/receipts/<int:receipt_id>")
@login_required
def show_receipt(receipt_id: int):
    receipt = library.get_receipt(current_actor(), receipt_id)
    return render_page("receipts/receipt.html", ["receipt_body"], view=receipt_view(receipt), action_form=EmptyForm())


@receipt_pages.get("/receipts/<int:receipt_id>/file")
@login_required
def receipt_file(receipt_id: int):
    path, receipt = library.receipt_file(current_actor(), receipt_id)
    return file_response(path, receipt)


@receipt_pages.post("/receipts/<int:receipt_id>/reprocess")
@login_required
def reprocess_receipt(receipt_id: int):
    if EmptyForm().validate_on_submit():
        library.reprocess_receipt(current_actor(), receipt_id)
    return redirect(url_for("receipts.show_receipt", receipt_id=receipt_id), 303)


@receipt_pages.post("/receipts/<int:receipt_id>/delete")
@login_required
def delete_receipt(receipt_id: int):
    if EmptyForm().validate_on_submit():
        library.delete_receipt(current_actor(), receipt_id)
    return redirect(url_for("receipts.list_receipts"), 303)
