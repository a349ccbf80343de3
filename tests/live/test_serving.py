"""`make run`'s server: gunicorn workers serving the shop and MCP Streamable HTTP at /mcp on one port."""

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.live.servers import AppServer, prepared_sqlite

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = prepared_sqlite(tmp_path_factory.mktemp("serving"), seed_demo=True)
    with AppServer(database_url=url, workers=2) as live:
        yield live


def test_the_shop_and_mcp_share_one_port_under_gunicorn(server):
    async def main():
        with anyio.fail_after(60):
            return await exchange()

    async def exchange():
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(20.0)) as http:
            page = await http.get(server.url + "/catalog?q=white+shirt")
            # Several sessions in a row: stateless MCP, so any worker may answer any request.
            listings = []
            for _ in range(4):
                async with streamable_http_client(server.url + "/mcp", http_client=http) as (read, write), \
                        ClientSession(read, write) as session:  # fmt: skip
                    await session.initialize()
                    listings.append(await session.list_tools())
                    found = await session.call_tool("search_products", {"query": "white shirt"})
            return page, listings, found

    page, listings, found = anyio.run(main)

    assert page.status_code == 200 and page.headers["Server"] == "gunicorn"
    assert "Oxford" in page.text
    assert all("search_products" in {tool.name for tool in listing.tools} for listing in listings)
    assert not found.is_error and found.structured_content["products"]


def test_production_settings_refuse_debug_and_test_payments(tmp_path):
    url = prepared_sqlite(tmp_path)

    for extra, expected in (({"FLASK_DEBUG": "1"}, "Debug mode is refused"),
                            ({"ALLOW_OFFLINE_PAYMENTS": ""}, "STRIPE_SECRET_KEY must be set")):  # fmt: skip
        server = AppServer(database_url=url, workers=1, env=extra)
        with pytest.raises(RuntimeError):
            server.start(timeout=15)
        assert expected in server.log()
    server = AppServer(database_url=url, workers=1, secret_key="")
    with pytest.raises(RuntimeError):
        server.start(timeout=15)
    assert "SECRET_KEY must be set in production" in server.log()
