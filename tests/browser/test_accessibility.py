"""Accessibility: axe-core's WCAG 2.0/2.1 A and AA rules find no serious or critical violation on the shop's pages
— home, catalog, product, cart, checkout, the assistant panel, login, register, account, an order and the admin
dashboard — at a desktop and a phone size.

axe-core is vendored in tests/browser/vendor/axe-core (version and source in tests/browser/vendor/README.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from tests.admin_helpers import make_admin
from tests.services.test_orders import details

AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
VIEWPORTS = [pytest.param(1280, 800, id="desktop"), pytest.param(390, 844, id="phone")]

RUN_AXE = """async (tags) => {
  const results = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return {
    rules: results.passes.length + results.violations.length,
    violations: results.violations.map((rule) => ({
      id: rule.id, impact: rule.impact, help: rule.help,
      nodes: rule.nodes.map((node) => ({target: node.target.join(" "), summary: node.failureSummary})),
    })),
  };
}"""


class Audit:
    """Runs axe on each page visited and keeps its serious and critical violations, page by page."""

    def __init__(self, page, screenshots: Path):
        self.page, self.screenshots, self.found = page, screenshots, {}

    def check(self, name: str) -> None:
        # evaluate(), not add_script_tag(): the shop's CSP (script-src 'self') refuses the inline <script> that
        # add_script_tag would insert, and the page must be tested under its real policy.
        self.page.evaluate(AXE_SOURCE)
        results = self.page.evaluate(RUN_AXE, WCAG_TAGS)
        assert results["rules"] > 10, f"axe checked almost nothing on {name}"
        blocking = [rule for rule in results["violations"] if rule["impact"] in BLOCKING]
        if blocking:
            self.found[name] = blocking
            self.page.screenshot(path=str(self.screenshots / f"{name}.png"), full_page=True)

    def report(self) -> str:
        lines = []
        for name, rules in self.found.items():
            for rule in rules:
                lines.append(f"{name}: {rule['id']} ({rule['impact']}) — {rule['help']}")
                for node in rule["nodes"]:
                    summary = " / ".join(line.strip() for line in node["summary"].splitlines()[1:] if line.strip())
                    lines.append(f"    {node['target']}: {summary}")
        return "\n".join(lines + [f"(screenshots of these pages in {self.screenshots})"])


def a_paid_order_of(user):
    """A paid order of one unit, placed through the services as checkout would."""
    buyer = Actor(user=user)
    variant = db.session.query(ProductVariant).filter(ProductVariant.stock > 2).first()
    cart.add_item(buyer, variant.product_id, 1, variant.color, variant.size)
    order = orders.place_order(buyer, details(email=user.email))
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")
    return order


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_no_serious_or_critical_axe_violations(live_server, browser, tmp_path, width, height):
    order = a_paid_order_of(make_admin())
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    audit = Audit(page, tmp_path)

    # A guest: home, a search with filters, a product, the cart and checkout with an item in it.
    page.goto(live_server)
    audit.check("home")
    page.goto(f"{live_server}/catalog?q=shirt&category=men&color=white")
    expect(page.locator("#results .chip").first).to_be_visible()
    audit.check("catalog (search + filters)")
    page.locator("#results .card-link").first.click()
    expect(page.locator("h1.product-title")).to_be_visible()
    audit.check("product")
    page.locator(".size-option:not(.unavailable)").first.click()
    expect(page).to_have_url(re.compile(r"size="))
    page.locator(".add-button").click()
    expect(page.locator("#cart-count")).to_have_text("1")
    audit.check("product (size chosen, added)")
    page.goto(f"{live_server}/cart")
    expect(page.locator(".cart-line-name")).to_have_count(1)
    audit.check("cart")
    page.goto(f"{live_server}/checkout")
    expect(page.locator("#checkout-summary")).to_be_visible()
    audit.check("checkout")

    # The assistant's panel, open with product cards in it; closed again so it covers nothing afterwards.
    page.goto(live_server)
    page.locator(".assistant-toggle").click()
    page.locator("#chat-input").fill("show me white shirts")
    page.locator("#assistant-panel form.chat-form button").click()
    expect(page.locator("#chat-log .chat-card").first).to_be_visible()
    expect(page.locator("#chat-log .chat-typing")).to_have_count(0)
    audit.check("assistant panel")
    page.locator(".assistant-toggle").click()

    page.goto(f"{live_server}/register")
    audit.check("register")
    page.goto(f"{live_server}/login")
    audit.check("login")

    # An admin (who is also a customer with an order): account, the order page, the dashboard.
    page.fill("#email", "boss@example.com")
    page.fill("#password", "an admin password")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Hello")
    audit.check("account")
    page.goto(f"{live_server}/orders/{order.id}")
    expect(page.locator("h1")).to_contain_text(f"Order #{order.id}")
    audit.check("order")
    page.goto(f"{live_server}/admin")
    expect(page.locator("h1")).to_have_text("Dashboard")
    audit.check("admin dashboard")
    context.close()

    assert not audit.found, f"axe found serious or critical violations at {width}×{height}:\n{audit.report()}"


CONTRAST_JS = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
                                      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let back = el.parentElement;
  while (back && getComputedStyle(back).backgroundColor.match(/[\\d.]+/g)?.[3] === "0") back = back.parentElement;
  const ring = lum(rgb(getComputedStyle(el).outlineColor));
  const page = lum(rgb(getComputedStyle(back || document.body).backgroundColor));
  return (Math.max(ring, page) + 0.05) / (Math.min(ring, page) + 0.05);
}"""


def test_the_keyboard_focus_ring_has_at_least_3_to_1_contrast_with_what_is_around_it(live_server, page):
    """Issue 29, item 18: the focus indicator reaches 3:1 against the surface it is drawn on."""
    page.goto(f"{live_server}/products/1")
    for _ in range(6):
        page.keyboard.press("Tab")
        focused = page.evaluate_handle("document.activeElement")
        assert page.evaluate("(el) => getComputedStyle(el).outlineStyle", focused) != "none"
        assert page.evaluate(CONTRAST_JS, focused) >= 3
