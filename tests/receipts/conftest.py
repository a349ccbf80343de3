import pytest

SHOP_RECEIPT = """CORNER MARKET
12 High Street, Springfield IL 62701
Date: 10/14/2026 18:02
2 x Whole Milk 1L        3.98
Sourdough Bread          4.50
Cheddar Cheese 200g      5.25
SUBTOTAL                13.73
TAX                      1.10
TOTAL USD               14.83
VISA ****4242
"""


@pytest.fixture
def receipts_app(app):
    """Receipts are read at once (inline) so each test sees the result of its upload."""
    app.config["RECEIPT_QUEUE"] = "inline"
    return app


@pytest.fixture
def receipt_text() -> bytes:
    return SHOP_RECEIPT.encode()
