from datetime import date, timedelta
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.sales import Sale
from insightshop.services import pricing
from insightshop.services.sales import holiday_calendar, run_sale_automation
from tests.factories import make_product


def sale(percent, *, active=True, start=-1, end=1, **scope):
    today = pricing.today()
    item = Sale(name=f"{percent}% off", discount_percentage=Decimal(percent), is_active=active,
                start_date=today + timedelta(days=start), end_date=today + timedelta(days=end), **scope)  # fmt: skip
    db.session.add(item)
    db.session.commit()
    return item


def test_the_biggest_running_sale_that_covers_a_product_wins():
    shirt = make_product("Oxford Shirt", price="59.99", category="men")
    dress = make_product("Wrap Dress", clothing_type="dress", category="women", price="80.00")
    sale(10)
    best = sale(25, categories=["men"])
    sale(50, active=False)
    sale(60, start=-10, end=-2)  # over
    sale(70, product_ids=[dress.id + 1000])  # covers nothing here

    book = pricing.PriceBook()

    assert book.price_of(shirt).price == Decimal("44.99")  # 59.99 × 0.75 = 44.9925
    assert book.price_of(shirt).sale.id == best.id
    assert book.price_of(dress).price == Decimal("72.00")
    assert book.price_of(dress).list_price == Decimal("80.00")


def test_totals_are_exact_to_the_cent(app):
    app.config.update(TAX_RATE="0.0825", FREE_SHIPPING_FROM="75.00", SHIPPING_STANDARD="5.95", SHIPPING_EXPRESS="14.95")
    cheap = pricing.Price(Decimal("19.99"), Decimal("16.99"), None)
    dear = pricing.Price(Decimal("33.33"), Decimal("33.33"), None)

    standard = pricing.totals([(cheap, 3)], "standard")
    free = pricing.totals([(cheap, 1), (dear, 2)], "standard")
    express = pricing.totals([(dear, 3)], "express")

    assert standard == pricing.Totals(
        Decimal("59.97"), Decimal("9.00"), Decimal("5.95"), Decimal("4.21"), Decimal("61.13")
    )
    assert free.shipping == Decimal("0.00") and free.total == Decimal("90.55")  # 83.65 + 6.90 tax (6.901125)
    assert express.shipping == Decimal("14.95") and express.total == Decimal("123.19")


def test_cart_and_api_show_sale_prices(client):
    product = make_product("Oxford Shirt", price="40.00", sizes=("L",))
    sale(20)

    body = client.get(f"/api/products/{product.id}").get_json()["product"]

    assert (body["price"], body["list_price"], body["on_sale"]) == ("32.00", "40.00", True)


def test_automation_creates_holidays_starts_and_ends_sales_once():
    day = date(2026, 11, 22)
    upcoming = sale(10, active=False, start=0, end=3)
    upcoming.start_date, upcoming.end_date = day, day + timedelta(days=3)
    expired = sale(10, active=True)
    expired.start_date, expired.end_date = day - timedelta(days=9), day - timedelta(days=1)
    db.session.commit()

    first = run_sale_automation(day)
    second = run_sale_automation(day)

    assert "Black Friday 2026" in first.created and "Cyber Monday 2026" in first.created
    assert "New Year Sale 2027" in first.created and "Summer Sale 2027" in first.created
    assert "Summer Sale 2026" not in first.created  # already over
    assert upcoming.name in first.activated and expired.name in first.deactivated
    assert not second.changed
    black_friday = db.session.query(Sale).filter_by(slug="black-friday-2026").one()
    assert (black_friday.start_date, black_friday.end_date) == (date(2026, 11, 27), date(2026, 11, 29))


def test_holiday_dates_follow_the_calendar():
    dates = {key: (start, end) for key, _, _, _, start, end in holiday_calendar(2027)}
    assert dates["black-friday"][0] == date(2027, 11, 26)
    assert dates["cyber-monday"] == (date(2027, 11, 29), date(2027, 11, 29))


def test_outfit_suggestions_follow_type_and_colour_rules():
    from insightshop.services.styling import suggest_outfit

    shirt = make_product("Oxford Shirt", color="white", category="men")
    chinos = make_product("Slim Chinos", clothing_type="pants", color="navy", category="men", rating="4.8")
    make_product("Wrap Skirt", clothing_type="skirt", color="navy", category="women")  # another department
    make_product("Print Tee", clothing_type="t-shirt", color="navy", category="men")  # not a bottom for a shirt
    make_product("Loud Pants", clothing_type="pants", color="orange", category="men")  # colour clash

    base, picks, reason = suggest_outfit(shirt.id)

    assert base.id == shirt.id and [p.id for p in picks] == [chinos.id]
    assert reason == "White shirt goes well with navy pants"
