"""The assistant in a real browser, with the built-in offline engine (no key, no network)."""

from playwright.sync_api import expect

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from tests.admin_helpers import make_admin
from tests.factories import make_user
from tests.services.test_orders import details


def ask(page, text):
    count = page.locator("#chat-log .chat-msg--assistant").count()
    box = page.locator("form.chat-form input[name=message]").first
    box.fill(text)
    page.locator("form.chat-form button").first.click()
    expect(page.locator("#chat-log .chat-msg--assistant")).to_have_count(count + 1)
    return page.locator("#chat-log .chat-msg--assistant").last


def test_a_guest_fills_and_empties_the_cart_by_chat(live_server, page, tmp_path):
    page.goto(f"{live_server}/")
    page.locator(".assistant-toggle").click()
    expect(page.locator("#cart-count")).to_have_text("0")

    answer = ask(page, "add 2 large white shirts into my cart")
    expect(answer.locator(".chat-cart")).to_contain_text("2 × ")
    expect(page.locator("#cart-count")).to_have_text("2")
    expect(page.locator("form.chat-form input[name=message]").first).to_have_value("")

    answer = ask(page, "empty my cart")
    expect(answer.locator(".chat-confirm")).to_contain_text("Remove every item from your cart.")
    expect(page.locator("#cart-count")).to_have_text("2")  # nothing happens before approval
    answer.get_by_role("button", name="Approve").click()
    expect(page.locator("#chat-log .chat-msg--assistant").last).to_contain_text("Your cart is empty now.")
    page.screenshot(path=str(tmp_path / "assistant.png"), full_page=False)
    page.reload()
    expect(page.locator("#cart-count")).to_have_text("0")
    assert page.console_errors == []


def test_an_admin_ships_an_order_by_chat_and_a_customer_cannot(live_server, browser):
    make_admin()
    buyer = Actor(user=make_user("buyer@example.com"))
    variant = db.session.query(ProductVariant).filter(ProductVariant.stock > 2).first()
    cart.add_item(buyer, variant.product_id, 1, variant.color, variant.size)
    order = orders.place_order(buyer, details(email="buyer@example.com"))
    offline.create_intent(order)
    offline.confirm(order, "4242424242424242")

    def session_for(email, password):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{live_server}/login")
        page.fill("#email", email)
        page.fill("#password", password)
        page.get_by_role("button", name="Log in", exact=True).click()
        page.goto(f"{live_server}/chat")
        return context, page

    customer_context, customer = session_for("buyer@example.com", "correct horse battery")
    refused = ask(customer, f"mark order {order.id} as shipped")
    expect(refused).to_contain_text("only the shop's admins")
    assert refused.locator(".chat-confirm").count() == 0
    customer_context.close()

    admin_context, admin_page = session_for("boss@example.com", "an admin password")
    asked = ask(admin_page, f"mark order {order.id} as shipped")
    expect(asked).to_contain_text("tracking number")  # the panel's rule: no shipping without carrier and tracking
    assert asked.locator(".chat-confirm").count() == 0
    proposal = ask(admin_page, "UPS, tracking 1Z999AA10123456784")
    expect(proposal.locator(".chat-confirm")).to_contain_text(f"order #{order.id}")
    expect(proposal.locator(".chat-confirm")).to_contain_text("1Z999AA10123456784")
    proposal.get_by_role("button", name="Approve").click()
    result = admin_page.locator("#chat-log .chat-msg--assistant").last
    expect(result).to_contain_text(f"Order #{order.id} is now shipped.")
    db.session.expire_all()
    shipped = db.session.get(type(order), order.id)
    assert (shipped.status, shipped.carrier, shipped.tracking_number) == ("shipped", "UPS", "1Z999AA10123456784")
    admin_context.close()


def test_a_message_sent_while_the_last_is_being_answered_goes_next_instead_of_vanishing(live_server, page):
    # The first answer is held back, so the shopper's second message is typed and sent while it is on its way.
    held = []
    page.route("**/chat/message", lambda route: held.append(route) if not held else route.continue_())
    page.goto(f"{live_server}/chat")
    box = page.locator("form.chat-form input[name=message]").first
    box.fill("show me red dresses")
    box.press("Enter")
    expect(page.locator("#chat-log .chat-typing")).to_have_count(1)
    box.fill("show me blue jeans")
    box.press("Enter")  # the form is busy: the message waits in the box
    expect(box).to_have_value("show me blue jeans")
    held[0].continue_()

    users = page.locator("#chat-log .chat-msg--user")
    expect(users).to_have_count(2)
    expect(users.nth(0)).to_have_text("show me red dresses")
    expect(users.nth(1)).to_have_text("show me blue jeans")
    expect(page.locator("#chat-log .chat-msg--assistant").last).to_contain_text("jeans")
    expect(box).to_have_value("")
    assert page.console_errors == []
