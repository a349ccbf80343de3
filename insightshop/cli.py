"""Flask CLI commands: `flask --app insightshop seed-demo`, `flask --app insightshop search reindex`."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from .extensions import db


def register_cli(app: Flask) -> None:
    @app.cli.command("seed-demo")
    def seed_demo() -> None:
        """Load the demo catalog (adds what is missing; never deletes)."""
        from .services.demo_catalog import seed_demo_catalog

        result = seed_demo_catalog()
        click.echo(f"Demo catalog: {result.created} products added, {result.skipped} already present.")

    @app.cli.command("catalog-empty")
    def catalog_empty() -> None:
        """Exit 0 when the catalog has no products (used by `make run` to seed only an empty shop)."""
        from .models.catalog import Product

        raise SystemExit(0 if db.session.query(Product.id).first() is None else 1)

    search = AppGroup("search", help="Catalog search index.")

    @search.command("reindex")
    def reindex() -> None:
        """Rebuild the full-text index of every product."""
        from .services import search_index

        with db.engine.begin() as connection:
            count = search_index.reindex(connection)
        click.echo(f"Indexed {count} products.")

    app.cli.add_command(search)
