"""The production entry point: `gunicorn -c deploy/gunicorn.conf.py insightshop.wsgi:app` (what `make run` does)
serves the shop and MCP Streamable HTTP at /mcp on one port. Each worker process builds its own app."""

from . import create_app
from .mcp.wsgi_transport import with_mcp

app = with_mcp(create_app())
