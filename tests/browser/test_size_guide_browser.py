"""The size guide on a desktop and a phone: its tables are there and the phone page never scrolls sideways."""

import os
from pathlib import Path

import pytest

from insightshop.services import size_guide


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_size_guide_fits_the_screen_and_shows_every_table(browser, live_server, tmp_path, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server}/size-guide")

    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    page.screenshot(path=str(shots / f"size-guide-{width}x{height}.png"), full_page=True)

    assert scroll_width == width
    for table in size_guide.size_tables():
        rows = page.locator(f"#{table.category} table.size-table tbody tr")
        assert rows.count() == len(table.rows)
        assert rows.first.locator("th").inner_text() == next(iter(table.rows))
    page.get_by_role("link", name="Size guide").last.click()  # the footer link
    assert page.url.endswith("/size-guide")
    context.close()
