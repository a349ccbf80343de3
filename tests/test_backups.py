"""flask backup / flask restore: a round trip puts every table back as it was (SQLite and PostgreSQL alike)."""

import pytest

from insightshop.extensions import db
from insightshop.models.orders import Order
from insightshop.services import backups
from insightshop.services.actors import Actor
from tests.factories import make_paid_order, make_product, make_user

pytestmark = pytest.mark.commits  # a restore replaces the database itself


def _order_totals(order_id: int) -> tuple:
    order = db.session.get(Order, order_id)
    return (order.subtotal, order.discount, order.tax, order.shipping, order.total,
            [(line.sku, line.quantity, line.line_total) for line in order.items])  # fmt: skip


def test_backup_then_restore_puts_every_table_back(runner, tmp_path):
    shirt = make_product("Oxford Shirt", price="49.00")
    make_product("Linen Trousers", clothing_type="trousers", price="79.00")
    order = make_paid_order(Actor(user=make_user()), shirt)
    order_id, totals, counts = order.id, _order_totals(order.id), backups.table_row_counts()
    path = tmp_path / "shop.backup"

    backed_up = runner.invoke(args=["backup", str(path)])
    db.session.delete(db.session.get(Order, order_id))
    db.session.commit()
    make_product("Added After The Backup")
    changed = backups.table_row_counts()
    restored = runner.invoke(args=["restore", "--yes", str(path)])

    assert backed_up.exit_code == 0, backed_up.output
    assert restored.exit_code == 0, restored.output
    assert changed["orders"] == counts["orders"] - 1 and changed["products"] == counts["products"] + 1
    assert backups.table_row_counts() == counts
    assert _order_totals(order_id) == totals
    assert f"to {path}: " in backed_up.output and f"{len(counts)} tables" in backed_up.output
    assert f"  orders: {counts['orders']}" in restored.output


def test_a_restore_asks_first_and_a_no_changes_nothing(runner, tmp_path):
    make_product("Oxford Shirt")
    path = tmp_path / "shop.backup"
    runner.invoke(args=["backup", str(path)])
    make_product("Kept Because The Restore Was Refused")
    counts = backups.table_row_counts()

    refused = runner.invoke(args=["restore", str(path)], input="n\n")

    assert refused.exit_code != 0 and "Replace all data in" in refused.output
    assert backups.table_row_counts() == counts


def test_a_file_that_is_not_a_backup_is_refused(runner, tmp_path):
    make_product("Oxford Shirt")
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database")
    counts = backups.table_row_counts()

    result = runner.invoke(args=["restore", "--yes", str(bogus)])

    assert result.exit_code != 0 and "is not" in result.output
    assert backups.table_row_counts() == counts


def test_a_backup_file_is_readable_by_its_owner_only(runner, tmp_path):
    path = tmp_path / "shop.backup"

    runner.invoke(args=["backup", str(path)])

    assert path.stat().st_mode & 0o077 == 0
    assert not (tmp_path / "shop.backup.partial").exists()


def test_a_backup_into_a_missing_folder_says_so_and_writes_nothing(runner, tmp_path):
    result = runner.invoke(args=["backup", str(tmp_path / "no-such-folder" / "shop.bak")])

    assert result.exit_code == 1 and "Could not write" in result.output and "No such file" in result.output
    assert not (tmp_path / "no-such-folder").exists()


def test_a_restore_ends_cached_pages(app, runner, tmp_path):
    from insightshop.web import page_cache as web_page_cache

    web_page_cache.enable(app)
    shirt = make_product("Oxford Shirt", price="49.00")
    path = tmp_path / "shop.backup"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    # A change the cache does not hear of (made behind the ORM's back), then the backup put back.
    db.session.execute(db.text("UPDATE products SET name = 'Renamed Shirt' WHERE id = :id"), {"id": shirt.id})
    db.session.commit()
    client = app.test_client()
    client.get(f"/products/{shirt.id}")
    stale = client.get(f"/products/{shirt.id}")
    assert stale.headers["X-Cache"] == "hit" and "Renamed Shirt" in stale.get_data(as_text=True)

    assert runner.invoke(args=["restore", "--yes", str(path)]).exit_code == 0

    page = client.get(f"/products/{shirt.id}")
    assert page.headers["X-Cache"] == "miss" and "Oxford Shirt" in page.get_data(as_text=True)


def test_a_restore_with_redis_unreachable_says_cached_pages_were_not_ended(app, runner, tmp_path):
    from insightshop.services.page_cache import PageCache

    path = tmp_path / "shop.backup"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    # Nothing listens on port 1: the shared cache other app servers read cannot be told about the restore.
    app.extensions["page_cache"] = PageCache(app.instance_path, redis_url="redis://127.0.0.1:1/0", prefix="t:",
                                             max_entries=8, signing_key=b"k")  # fmt: skip

    restored = runner.invoke(args=["restore", "--yes", str(path)])
    clearing = runner.invoke(args=["cache", "clear"])

    assert restored.exit_code == 0 and "Restored" in restored.output  # the data is back all the same
    assert "Warning: Redis could not be reached to end the cached pages" in restored.output
    assert "cache clear" in restored.output
    assert clearing.exit_code == 1 and "Redis could not be reached" in clearing.output


def test_cache_clear_ends_every_cached_page(app, runner):
    from insightshop.web import page_cache as web_page_cache

    web_page_cache.enable(app)
    shirt = make_product("Oxford Shirt", price="49.00")
    db.session.execute(db.text("UPDATE products SET name = 'Renamed Shirt' WHERE id = :id"), {"id": shirt.id})
    db.session.commit()  # behind the ORM's back: the cache does not hear of it
    client = app.test_client()
    client.get(f"/products/{shirt.id}")
    assert client.get(f"/products/{shirt.id}").headers["X-Cache"] == "hit"
    db.session.execute(db.text("UPDATE products SET name = 'Oxford Shirt' WHERE id = :id"), {"id": shirt.id})
    db.session.commit()

    cleared = runner.invoke(args=["cache", "clear"])

    page = client.get(f"/products/{shirt.id}")
    assert cleared.exit_code == 0 and "Cached pages ended." in cleared.output
    assert page.headers["X-Cache"] == "miss" and "Oxford Shirt" in page.get_data(as_text=True)
