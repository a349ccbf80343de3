"""The size guide and help pages: tables from the size-guide data, linked from the footer and product pages."""

import re

from insightshop.services import size_guide
from tests.factories import make_product


def test_the_size_guide_renders_every_department_table_from_the_data(client):
    response = client.get("/size-guide")
    html = response.get_data(as_text=True)

    assert response.status_code == 200
    for table in size_guide.size_tables():
        section = html.split(f'id="{table.category}"', 1)[1].split("</section>", 1)[0]
        rows = re.findall(r"<tr><th scope=\"row\">(\w+)</th>(.*?)</tr>", section)
        assert [size for size, _ in rows] == list(table.rows)
        for size, cells in rows:
            assert re.findall(r"<td>(.*?)</td>", cells) == list(table.rows[size])
        assert all(f'<th scope="col">{column}</th>' in section for column in table.columns)


def test_the_footer_links_the_size_guide_and_help_on_every_page(client):
    html = client.get("/").get_data(as_text=True)
    footer = html.split('<footer class="site-footer">', 1)[1]

    assert 'href="/size-guide"' in footer and 'href="/help"' in footer


def test_the_product_page_links_the_size_guide_of_its_department(client):
    product = make_product("Rainbow Hoodie", clothing_type="hoodie", category="kids", sizes=("S", "M"))

    html = client.get(f"/products/{product.id}").get_data(as_text=True)

    assert 'href="/size-guide#kids"' in html


def test_the_help_page_shows_the_configured_policies(app, client):
    app.config.update(FREE_SHIPPING_FROM="64.00", RETURN_WINDOW_DAYS=21)

    html = client.get("/help").get_data(as_text=True)

    assert "$64.00" in html and "21 days of delivery" in html
    assert all(f'id="{topic}"' in html for topic in ("shipping", "returns", "sizes", "payments", "orders", "contact"))


def test_the_footer_quotes_the_configured_return_window(app, client):
    app.config.update(RETURN_WINDOW_DAYS=60)

    assert "Returns within 60 days of delivery" in client.get("/").get_data(as_text=True)
