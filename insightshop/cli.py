"""Flask CLI commands: seed-demo, create-user, catalog-empty, search reindex, sales run-automation, backup, restore,
cache clear."""

from __future__ import annotations

import sys

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from .extensions import db


@click.command("seed-demo")
@with_appcontext
def seed_demo() -> None:
    """Load the demo catalog (adds what is missing; never deletes)."""
    from .services.demo_catalog import seed_demo_catalog

    result = seed_demo_catalog()
    click.echo(f"Demo catalog: {result.created} products added, {result.skipped} already present.")


@click.command("catalog-empty")
@with_appcontext
def catalog_empty() -> None:
    """Exit 0 when the catalog has no products (used by `make run` to seed only an empty shop)."""
    from .models.catalog import Product

    raise SystemExit(0 if db.session.query(Product.id).first() is None else 1)


@click.command("assistant-warm")
def assistant_warm() -> None:
    """Train the assistant's intent classifier now and cache it on disk, so the first chat after `make run` is fast."""
    import time

    from .agent.offline import classifier

    started = time.perf_counter()
    classifier.model()
    click.echo(f"Assistant's intent model ready in {time.perf_counter() - started:.1f} s.")


@click.command("create-user")
@click.option("--email", required=True, help="The account's email address.")
@click.option("--password", help="The password; read from standard input when omitted.")
@click.option("--first-name", default="", help="First name.")
@click.option("--last-name", default="", help="Last name.")
@click.option("--admin", is_flag=True, help="May use the admin panel.")
@click.option("--superadmin", is_flag=True, help="May also manage admins.")
@with_appcontext
def create_user(email, password, first_name, last_name, admin, superadmin) -> None:
    """Create a verified account (there are no default accounts or passwords)."""
    from .services.accounts import register_user
    from .services.errors import DomainError

    if password is None:
        if sys.stdin.isatty():
            password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
        else:
            password = sys.stdin.readline().rstrip("\n")
    try:
        user = register_user(email, password, first_name=first_name, last_name=last_name, is_admin=admin,
                             is_superadmin=superadmin, is_verified=True)  # fmt: skip
    except DomainError as error:
        raise click.ClickException(error.message) from None
    role = "superadmin" if user.is_superadmin else "admin" if user.is_admin else "customer"
    click.echo(f"Created {role} account {user.email} (id {user.id}).")


search = AppGroup("search", help="Catalog search index.")


@search.command("reindex")
def reindex() -> None:
    """Rebuild the full-text index of every product."""
    from .services import search_index

    with db.engine.begin() as connection:
        count = search_index.reindex(connection)
    click.echo(f"Indexed {count} products.")


sales = AppGroup("sales", help="Sales calendar.")


@sales.command("run-automation")
def run_automation() -> None:
    """Create the coming holiday sales, start sales whose window opened, end expired ones."""
    from .services.sales import run_sale_automation

    report = run_sale_automation()
    for label, names in (("Created", report.created), ("Activated", report.activated), ("Ended", report.deactivated)):
        for name in names:
            click.echo(f"{label}: {name}")
    if not report.changed:
        click.echo("Nothing to change.")


order_commands = AppGroup("orders", help="Orders.")


@order_commands.command("expire-unpaid")
def expire_unpaid() -> None:
    """Cancel unpaid orders past their hold time (guests: ORDER_HOLD_MINUTES, customers: UNPAID_ORDER_MINUTES),
    returning their stock (run it from cron)."""
    from flask import current_app

    from .services.orders import expire_unpaid as expire

    count = expire()
    config = current_app.config
    click.echo(
        f"Expired {count} unpaid orders (hold time {config['ORDER_HOLD_MINUTES']} minutes for guests, "
        f"{config['UNPAID_ORDER_MINUTES']} for customers)."
    )


mcp_commands = AppGroup("mcp", help="The MCP server for external agents.")


@mcp_commands.command("stdio")
@click.option(
    "--token",
    default="",
    envvar="INSIGHTSHOP_MCP_TOKEN",
    help="Bearer token (from /api/auth/login); none: public tools only.",
)
def mcp_stdio(token: str) -> None:
    """Serve the tools over stdio for desktop MCP clients (logs go to standard error)."""
    from flask import current_app

    from .mcp.server import run_stdio

    run_stdio(current_app._get_current_object(), token or None)


@mcp_commands.command("serve")
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=5000, type=int, envvar="PORT")
def mcp_serve(host: str, port: int) -> None:
    """Serve the shop and MCP Streamable HTTP at /mcp under one ASGI server (uvicorn)."""
    import uvicorn
    from flask import current_app

    from .mcp.server import asgi_app

    uvicorn.run(
        asgi_app(current_app._get_current_object(), allowed_hosts=[f"{host}:*", "localhost:*"]), host=host, port=port
    )


receipt_commands = AppGroup("receipts", help="Receipts: the reading worker.")


@receipt_commands.command("worker")
@click.option("--burst", is_flag=True, help="Read what is queued, then exit.")
def receipts_worker(burst: bool) -> None:
    """Read queued receipts: the RQ worker on REDIS_URL (run one or more beside the app servers)."""
    from flask import current_app

    from .services.receipts import jobs, processing

    if not current_app.config.get("REDIS_URL"):
        raise click.ClickException("REDIS_URL is not set: without Redis each app process reads receipts itself")
    for receipt_id in processing.stale_receipt_ids():  # left behind by a worker that stopped
        jobs.enqueue_rq(receipt_id)
    jobs.run_rq_worker(current_app._get_current_object(), burst=burst)


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup(path: str) -> None:
    """Write the whole database to PATH (pg_dump custom format on PostgreSQL, an SQLite file on SQLite)."""
    from .services import backups
    from .services.errors import DomainError

    try:
        report = backups.backup_database(path)
    except DomainError as error:
        raise click.ClickException(error.message) from None
    except OSError as error:  # a folder that does not exist or cannot be written
        raise click.ClickException(f"Could not write {path}: {error.strerror}") from None
    _echo_report(f"Backed up {backups.describe_database()} to", report)


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore(path: str, yes: bool) -> None:
    """Replace every table of the database with the backup at PATH (stop the app first)."""
    from .services import backups
    from .services.errors import DomainError

    if not yes:
        click.confirm(f"Replace all data in {backups.describe_database()} with {path}?", abort=True)
    try:
        report = backups.restore_database(path)
    except DomainError as error:
        raise click.ClickException(error.message) from None
    _echo_report(f"Restored {backups.describe_database()} from", report)


def _echo_report(what: str, report) -> None:
    click.echo(f"{what} {report.path}: {report.size_bytes:,} bytes, {len(report.tables)} tables, {report.rows:,} rows.")
    for name, rows in report.tables.items():
        click.echo(f"  {name}: {rows:,}")
    for warning in report.warnings:
        click.secho(f"Warning: {warning}", err=True, fg="yellow")


cache_commands = AppGroup("cache", help="The page and data cache.")


@cache_commands.command("clear")
def cache_clear() -> None:
    """End every cached page and data entry, on every app server (after a change made behind the app's back)."""
    from .services import page_cache

    if not page_cache.catalog_replaced():
        raise click.ClickException("Redis could not be reached; its cached pages were not ended. Try again.")
    click.echo("Cached pages ended.")


def register_cli(app: Flask) -> None:
    for command in (seed_demo, catalog_empty, assistant_warm, create_user, search, sales, order_commands, mcp_commands,
                    receipt_commands, backup, restore, cache_commands):  # fmt: skip
        app.cli.add_command(command)
