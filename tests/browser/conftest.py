"""A live server over the test database, and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
import threading

import pytest
from werkzeug.serving import make_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def live_server(demo_catalog):
    server = make_server("127.0.0.1", 0, demo_catalog, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    demo_catalog.config["PUBLIC_BASE_URL"] = url  # links in mail point at this server
    yield url
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    """One Chromium per worker, launched by its first browser test; each test gets a fresh context (cookies,
    storage) of its own. Playwright's sync API keeps its event loop marked running in the main thread while it is
    open: tests/conftest.py (_event_loop_of_its_own) hides it from every other test, so the MCP and anyio tests can
    start loops of their own."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser-deps)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _closes_its_contexts(browser):
    """The browser outlives each test: whatever contexts a test opened close with it."""
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()
