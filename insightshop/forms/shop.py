"""Cart, wishlist, review and compare forms (the product and variant come from the URL or hidden fields)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..models.cart import MAX_LINE_QUANTITY
from ..schemas.validation import DB_INT_MAX


class AddToCartForm(FlaskForm):
    product_id = IntegerField(validators=[DataRequired(), NumberRange(min=1, max=DB_INT_MAX)])
    color = HiddenField(validators=[Optional(), Length(max=50)])
    size = HiddenField(validators=[Optional(), Length(max=20)])
    quantity = IntegerField(
        "Quantity", default=1, validators=[DataRequired(), NumberRange(min=1, max=MAX_LINE_QUANTITY)]
    )


class QuantityForm(FlaskForm):
    quantity = IntegerField("Quantity", validators=[DataRequired(), NumberRange(min=1, max=MAX_LINE_QUANTITY)])


class EmptyForm(FlaskForm):
    """Buttons that only need the CSRF token (remove, clear, save, compare)."""


class ReviewForm(FlaskForm):
    rating = SelectField(
        "Rating",
        choices=[
            SelectChoice(value, text)
            for value, text in (
                ("5", "★★★★★ Excellent"),
                ("4", "★★★★☆ Good"),
                ("3", "★★★☆☆ Fine"),
                ("2", "★★☆☆☆ Poor"),
                ("1", "★☆☆☆☆ Bad"),
            )  # fmt: skip
        ],
        validators=[DataRequired()],
    )
    comment = TextAreaField("Your review", validators=[Optional(), Length(max=2000)])
    user_name = StringField("Your name", validators=[Optional(), Length(max=255)])
