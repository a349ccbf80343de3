"""Receipt upload and list filters in the browser (the same rules as the API, checked by the services)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, DecimalField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, NumberRange, Optional

from ..models.receipts import RECEIPT_STATUSES

STATUS_CHOICES = [SelectChoice("", "Any status")] + [
    SelectChoice(status, status.replace("_", " ").capitalize()) for status in RECEIPT_STATUSES
]


class UploadReceiptForm(FlaskForm):
    file = FileField("Receipt photo, PDF or text file", validators=[FileRequired("Choose a receipt file")])


class ReceiptFilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search form changes nothing

    merchant = StringField("Merchant", validators=[Optional(), Length(max=100)])
    date_from = DateField("From", validators=[Optional()])
    date_to = DateField("To", validators=[Optional()])
    min_amount = DecimalField("Min total", places=2, validators=[Optional(), NumberRange(min=0, max=99999999)])
    max_amount = DecimalField("Max total", places=2, validators=[Optional(), NumberRange(min=0, max=99999999)])
    category = StringField("Category", validators=[Optional(), Length(max=100)])
    status = SelectField("Status", choices=STATUS_CHOICES, validators=[Optional()])


class CorrectValueForm(FlaskForm):
    """A value typed by the owner; the service parses it by the field's kind and says what it expects."""

    value = StringField("Correct value", validators=[Length(max=500)])
    note = StringField("Note (optional)", validators=[Optional(), Length(max=500)])
