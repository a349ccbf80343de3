"""Catalog search benchmark: full-text search vs a naive LIKE scan over the same catalogs, same run.

    .venv/bin/python bench/search.py                       # SQLite, 1k / 10k / 100k products
    .venv/bin/python bench/search.py --sizes 1000 10000    # fewer sizes
    .venv/bin/python bench/search.py --postgres postgresql://root@127.0.0.1:5432/test

Each catalog is built once (cached under bench/.data/ for SQLite; --rebuild to redo) from
generate_products(), then 200 mixed searches (plain words, synonyms, prefixes being typed,
department words, filters, sorts) run through services.catalog.search_catalog — the code the
pages and the API use: count + one page of 24 with variants. The baseline answers the same
searches with LIKE '%word%' over name/type/colour/fabric/description and the same filters.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import func, or_, select  # noqa: E402

from insightshop import create_app  # noqa: E402
from insightshop.extensions import db  # noqa: E402
from insightshop.models.catalog import Product, ProductVariant  # noqa: E402
from insightshop.services.catalog import CatalogQuery, _intersect, search_catalog  # noqa: E402
from insightshop.services.demo_catalog import bulk_load  # noqa: E402
from insightshop.services.demo_catalog_data import generate_products  # noqa: E402
from insightshop.services.search_terms import parse_query  # noqa: E402

DATA = ROOT / "bench" / ".data"
SEARCHES = [
    CatalogQuery(text="white shirt"),
    CatalogQuery(text="shirt"),
    CatalogQuery(text="navy"),
    CatalogQuery(text="tees"),
    CatalogQuery(text="trousers"),
    CatalogQuery(text="jumper"),
    CatalogQuery(text="denim jacket"),
    CatalogQuery(text="kids hoodie"),
    CatalogQuery(text="ladies dress"),
    CatalogQuery(text="linen"),
    CatalogQuery(text="wool coat"),
    CatalogQuery(text="black sneakers"),
    CatalogQuery(text="swea"),
    CatalogQuery(text="white sh"),
    CatalogQuery(text="puff"),
    CatalogQuery(text="cashmere sweater"),
    CatalogQuery(text="red"),
    CatalogQuery(text="pajamas"),
    CatalogQuery(text="boys shorts"),
    CatalogQuery(text="large white shirts"),
    CatalogQuery(text="oxford"),
    CatalogQuery(text="slim jeans", category=("men",)),
    CatalogQuery(text="shirt", size=("L",), color=("white",)),
    CatalogQuery(text="dress", sort="price_low"),
    CatalogQuery(text="tee", sort="rating"),
    CatalogQuery(text="hoodie", category=("kids",), sort="newest"),
    CatalogQuery(text="summer"),
    CatalogQuery(text="socks", color=("black", "navy")),
    CatalogQuery(text="polo shirt"),
    CatalogQuery(text="waterproof"),
    CatalogQuery(text="chinos"),
    CatalogQuery(text="silk blouse"),
]


def build_catalog(url: str, size: int) -> None:
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        with db.engine.begin() as connection:
            for start in range(0, size, 20_000):
                items = generate_products(min(20_000, size - start), seed=start + 7)
                for offset, item in enumerate(items):
                    item["slug"] = f"{item['slug']}-b{start + offset}"
                bulk_load(connection, items, first_id=start + 1)
            if connection.dialect.name == "postgresql":
                connection.execute(sa.text("ANALYZE"))
        db.engine.dispose()


def like_search(query: CatalogQuery) -> tuple[int, list[Product]]:
    """The baseline: every word as LIKE '%word%' over the text columns, same filters and sort."""
    parsed = parse_query(query.text)
    statement = select(Product).where(Product.is_active)
    for group in parsed.groups:
        statement = statement.where(
            or_(
                *(
                    column.ilike(f"%{term.rstrip('*')}%")
                    for term in group
                    for column in (
                        Product.name,
                        Product.clothing_type,
                        Product.color,
                        Product.fabric,
                        Product.description,
                    )
                )
            )
        )
    categories = _intersect(query.category, parsed.categories)
    if categories:
        statement = statement.where(Product.category.in_(categories))
    if query.color:
        statement = statement.where(
            sa.exists().where(ProductVariant.product_id == Product.id, ProductVariant.color.in_(query.color))
        )
    sizes = _intersect(query.size, parsed.sizes)
    if sizes:
        statement = statement.where(
            sa.exists().where(
                ProductVariant.product_id == Product.id, ProductVariant.size.in_(sizes), ProductVariant.stock > 0
            )
        )
    if query.max_price is not None:
        statement = statement.where(Product.price <= query.max_price)
    total = db.session.scalar(select(func.count()).select_from(statement.subquery()))
    order = {"price_low": Product.price.asc(), "newest": Product.created_at.desc()}.get(
        query.sort, Product.rating.desc()
    )
    return total, list(db.session.scalars(statement.order_by(order, Product.id).limit(24)))


def timed(function, searches) -> list[float]:
    durations = []
    for query in searches:
        started = time.perf_counter()
        function(query)
        durations.append((time.perf_counter() - started) * 1000)
    return durations


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def run_size(url: str, size: int, searches: list[CatalogQuery]) -> dict:
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Product))
        assert count == size, f"catalog has {count} products, expected {size}; use --rebuild"
        timed(search_catalog, searches[:20])  # warm caches and the connection pool
        timed(like_search, searches[:20])
        fts = timed(search_catalog, searches)
        like = timed(like_search, searches)
        hits = sum(search_catalog(q).total > 0 for q in searches)
        db.session.remove()
        db.engine.dispose()
    return {"size": size, "fts": fts, "like": like, "hits": hits}


def catalog_url(args, size: int) -> str:
    if args.postgres:
        schema = f"bench_search_{size}"
        engine = sa.create_engine(args.postgres.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.begin() as connection:
            exists = connection.execute(
                sa.text("SELECT 1 FROM information_schema.tables WHERE table_schema = :s AND table_name = 'products'"),
                {"s": schema},
            ).first()
            if args.rebuild or not exists:
                connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
                connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
                exists = None
        engine.dispose()
        url = f"{args.postgres}?options={quote(f'-csearch_path={schema}')}"
        if not exists:
            build_catalog(url, size)
        return url
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"catalog-{size}.db"
    if args.rebuild and path.exists():
        path.unlink()
    if not path.exists():
        build_catalog(f"sqlite:///{path}", size)
    return f"sqlite:///{path}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--postgres", help="PostgreSQL URL (catalogs go into bench_search_<size> schemas)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild cached catalogs")
    args = parser.parse_args()

    rng = random.Random(42)
    searches = [rng.choice(SEARCHES) for _ in range(args.searches)]
    backend = "PostgreSQL full-text (tsvector + GIN)" if args.postgres else "SQLite FTS5"
    print(f"Catalog search: {backend} vs naive LIKE scan, {args.searches} mixed searches per size (ms)\n")
    print(f"{'products':>9} | {'search median':>13} {'p95':>8} | {'LIKE median':>11} {'p95':>8} | "
          f"{'speed-up median':>15} {'p95':>6} | {'queries with hits':>17}")  # fmt: skip
    print("-" * 104)
    for size in args.sizes:
        started = time.perf_counter()
        url = catalog_url(args, size)
        built = time.perf_counter() - started
        result = run_size(url, size, searches)
        fts, like = result["fts"], result["like"]
        print(
            f"{size:>9,} | {statistics.median(fts):>13.2f} {p95(fts):>8.2f} | {statistics.median(like):>11.2f} "
            f"{p95(like):>8.2f} | {statistics.median(like) / statistics.median(fts):>14.1f}x {p95(like) / p95(fts):>5.1f}x"
            f" | {result['hits']:>11}/{len(searches)}   (setup {built:.1f}s)"
        )


if __name__ == "__main__":
    main()
