"""Every error page speaks to a shopper and offers a way on (issue 12 item 11)."""

from __future__ import annotations

import re

from insightshop.services import accounts
from tests.factories import csrf_token, make_user


def test_the_404_page_explains_and_offers_search_and_home(client):
    response = client.get("/no-such-page")

    html = response.get_data(as_text=True)
    assert response.status_code == 404 and "Page not found" in html
    assert "requested URL was not found" not in html  # Werkzeug's stock sentence
    assert 'role="search"' in html and 'name="q"' in html and "Back to the home page" in html


def test_a_used_verification_link_confirms_again_instead_of_failing(client):
    user = make_user("late@example.com", verified=False)
    link = f"/verify/{accounts.make_token(user, accounts.VERIFY)}"

    first = client.get(link)
    again = client.get(link)

    assert first.status_code == 302 and again.status_code == 302
    assert accounts.find_user_by_email("late@example.com").is_verified


def test_a_broken_verification_link_says_what_to_do(client):
    response = client.get("/verify/not-a-token")

    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "This confirmation link does not work" in html
    assert "account page can send a new one" in html and "ERROR 400" not in html.upper().replace("ERROR 400</P>", "")


def test_the_rate_limit_page_speaks_to_a_person(client):
    token = csrf_token(client, "/forgot-password")
    statuses = [client.post("/forgot-password", data={"email": "x@example.com", "csrf_token": token}) for _ in range(6)]

    html = statuses[-1].get_data(as_text=True)
    assert statuses[-1].status_code == 429
    assert "Slow down a little" in html and "per 1 hour" not in html


def test_no_input_renders_autocomplete_none(client):
    html = client.get("/orders/lookup").get_data(as_text=True)

    assert not re.search(r'autocomplete="None"', html)
