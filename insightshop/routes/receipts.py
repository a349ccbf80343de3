"""Receipt pages: the shopper's receipts with filters and an upload form, one receipt read live, its file."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_login import login_required

from ..forms.receipts import CorrectValueForm, ReceiptFilterForm, UploadReceiptForm
from ..forms.shop import EmptyForm
from ..services.errors import Conflict, DomainError, Invalid
from ..services.receipts import corrections, library, uploads
from ..services.receipts.library import ReceiptFilters
from ..web.auth import current_actor
from ..web.forms import show_error
from ..web.receipt_files import file_response
from ..web.receipt_views import receipt_view
from ..web.rendering import is_fragment_request, render_page
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


def _receipt_page(receipt, cited: str | None, status: int = 200, **review):
    view = receipt_view(receipt, current_actor().user.id, cited, **review)
    return render_page("receipts/receipt.html", ["receipt_body"], status, view=view, action_form=EmptyForm())


def _reviewed(receipt, field_name: str):
    """After a verification or correction: the receipt's body for htmx, else back to the page at that field."""
    if is_fragment_request():
        return _receipt_page(receipt, field_name)
    return redirect(url_for("receipts.show_receipt", receipt_id=receipt.id, field=field_name, _anchor="cited"), 303)


def _refused(receipt_id: int, field_name: str, error: DomainError, typed: tuple[str, str] | None = None):
    receipt = library.get_receipt(current_actor(), receipt_id)
    return _receipt_page(receipt, field_name, 422, errors={field_name: error.message},
                         typed={field_name: typed} if typed else None)  # fmt: skip


@receipt_pages.get("/receipts/<int:receipt_id>")
@login_required
def show_receipt(receipt_id: int):
    receipt = library.get_receipt(current_actor(), receipt_id)
    return _receipt_page(receipt, request.args.get("field", type=str))


@receipt_pages.post("/receipts/<int:receipt_id>/fields/<field_name>/verify")
@login_required
def verify_field(receipt_id: int, field_name: str):
    try:
        receipt = corrections.verify_value(current_actor(), receipt_id, field_name)
    except (Invalid, Conflict) as error:  # a missing receipt or field stays a 404
        return _refused(receipt_id, field_name, error)
    return _reviewed(receipt, field_name)


@receipt_pages.post("/receipts/<int:receipt_id>/fields/<field_name>")
@login_required
def correct_field(receipt_id: int, field_name: str):
    form = CorrectValueForm()
    typed = (form.value.data or "", form.note.data or "")
    if not form.validate_on_submit():
        return _refused(receipt_id, field_name, Invalid("Keep the value and the note under 500 characters"), typed)
    try:
        receipt = corrections.correct_value(current_actor(), receipt_id, field_name, form.value.data, typed[1])
    except (Invalid, Conflict) as error:
        return _refused(receipt_id, field_name, error, typed)
    return _reviewed(receipt, field_name)


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
