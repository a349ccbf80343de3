"""Checkout, payment and order lookup forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import EmailField, HiddenField, IntegerField, RadioField, StringField, TelField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Email, Length, NumberRange, Optional

from ..schemas.validation import DB_INT_MAX
from ..services.shop_policies import DELIVERY_OPTIONS, delivery_label


class CheckoutForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=255)])
    shipping_name = StringField("Full name", validators=[DataRequired(), Length(max=255)])
    shipping_address = StringField("Address", validators=[DataRequired(), Length(max=500)])
    shipping_city = StringField("City", validators=[DataRequired(), Length(max=100)])
    shipping_state = StringField("State / region", validators=[DataRequired(), Length(max=100)])
    # the number keyboard on a phone (letters stay one tap away for a postcode)
    shipping_zip = StringField(
        "ZIP / postcode", validators=[DataRequired(), Length(max=20)], render_kw={"inputmode": "numeric"}
    )
    shipping_country = StringField("Country", default="US", validators=[Optional(), Length(max=50)])
    shipping_phone = TelField(
        "Phone (optional)", validators=[Optional(), Length(max=30)], render_kw={"inputmode": "tel"}
    )
    shipping_method = RadioField(
        "Delivery",
        choices=[SelectChoice(method, delivery_label(method)) for method in DELIVERY_OPTIONS],
        default="standard",
        validators=[DataRequired()],
    )
    idempotency_key = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])


class CardForm(FlaskForm):
    card_number = StringField(
        "Card number", validators=[DataRequired(), Length(min=12, max=23)], render_kw={"inputmode": "numeric"}
    )
    expiry = StringField("Expiry (MM/YY)", validators=[Optional(), Length(max=7)], render_kw={"inputmode": "numeric"})
    cvc = StringField("CVC", validators=[Optional(), Length(max=4)], render_kw={"inputmode": "numeric"})


class LookupForm(FlaskForm):
    order_id = IntegerField(
        "Order number",
        validators=[DataRequired(), NumberRange(min=1, max=DB_INT_MAX, message="No order has that number")],
    )
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=255)])


class ReturnForm(FlaskForm):
    order_item_id = IntegerField(validators=[DataRequired(), NumberRange(min=1, max=DB_INT_MAX)])
    quantity = IntegerField("Quantity", default=1, validators=[DataRequired(), NumberRange(min=1, max=10)])
    reason = TextAreaField("Reason", validators=[DataRequired(), Length(min=3, max=500)])
