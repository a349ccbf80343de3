from sqlalchemy import func, select

from insightshop.extensions import db
from insightshop.models.catalog import Product, ProductVariant
from insightshop.services.catalog import CatalogQuery, search_catalog
from insightshop.services.vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, SIZES
from tests.factories import make_product


def test_seed_demo_loads_a_full_catalog(runner):
    result = runner.invoke(args=["seed-demo"])

    assert result.exit_code == 0, result.output
    products = db.session.scalars(select(Product)).all()
    assert len(products) >= 150
    assert {p.category for p in products} == set(CATEGORIES)
    assert {p.clothing_type for p in products} == set(CLOTHING_TYPES)
    assert {v.color for p in products for v in p.variants} == set(COLORS)
    assert {v.size for p in products for v in p.variants} == set(SIZES)
    assert all(p.variants for p in products)
    assert len({p.name for p in products}) > 60
    assert f"{len(products)} products added" in result.output


def test_seed_demo_makes_large_white_shirts_findable(runner):
    runner.invoke(args=["seed-demo"])

    page = search_catalog(CatalogQuery(text="large white shirts", category=("men",)))

    assert page.total >= 2
    assert all(p.clothing_type == "shirt" and p.variant_for("white", "L").stock > 0 for p in page.products[:2])


def test_seed_demo_is_idempotent_and_never_deletes_or_overwrites(runner):
    runner.invoke(args=["seed-demo"])
    count = db.session.scalar(select(func.count()).select_from(Product))
    variants = db.session.scalar(select(func.count()).select_from(ProductVariant))
    mine = make_product("Shop Owner's Own Shirt")
    edited = db.session.scalars(select(Product).where(Product.id != mine.id).limit(1)).one()
    edited.price = edited.price + 1
    edited_price = edited.price
    db.session.commit()

    again = runner.invoke(args=["seed-demo"])

    assert "0 products added" in again.output
    assert db.session.scalar(select(func.count()).select_from(Product)) == count + 1
    assert db.session.scalar(select(func.count()).select_from(ProductVariant)) == variants + len(mine.variants)
    assert db.session.get(Product, mine.id) is not None
    db.session.expire_all()
    assert db.session.get(Product, edited.id).price == edited_price


def test_catalog_empty_reports_whether_products_exist(runner):
    assert runner.invoke(args=["catalog-empty"]).exit_code == 0
    make_product()
    assert runner.invoke(args=["catalog-empty"]).exit_code == 1


def test_search_reindex_rebuilds_the_index(runner):
    runner.invoke(args=["seed-demo"])
    db.session.execute(db.text("DELETE FROM product_search"))
    db.session.commit()
    assert search_catalog(CatalogQuery(text="shirt")).total == 0

    result = runner.invoke(args=["search", "reindex"])

    assert result.exit_code == 0 and "Indexed" in result.output
    assert search_catalog(CatalogQuery(text="shirt")).total > 5


def test_create_user_with_a_password_option_or_from_standard_input(runner):
    from insightshop.models.accounts import User
    from insightshop.services.accounts import authenticate

    first = runner.invoke(
        args=["create-user", "--email", "Boss@Example.com", "--password", "a long admin password", "--admin"]
    )
    second = runner.invoke(args=["create-user", "--email", "clerk@example.com"], input="piped secret password\n")
    weak = runner.invoke(args=["create-user", "--email", "weak@example.com", "--password", "short"])
    duplicate = runner.invoke(
        args=["create-user", "--email", "boss@example.com", "--password", "a long admin password"]
    )

    assert first.exit_code == 0 and "Created admin account boss@example.com" in first.output
    assert second.exit_code == 0, second.output
    assert authenticate("clerk@example.com", "piped secret password").is_verified
    boss = db.session.scalars(select(User).where(User.email == "boss@example.com")).one()
    assert boss.is_admin and not boss.is_superadmin
    assert weak.exit_code != 0 and "at least 8 characters" in weak.output
    assert duplicate.exit_code != 0 and "already exists" in duplicate.output
    assert db.session.scalar(select(func.count()).select_from(User)) == 2


def test_sales_run_automation_reports_and_is_idempotent(runner):
    first = runner.invoke(args=["sales", "run-automation"])
    second = runner.invoke(args=["sales", "run-automation"])

    assert first.exit_code == 0
    assert "Created: " in first.output
    assert second.output.strip() == "Nothing to change."


def test_assistant_warm_makes_the_intent_model_ready(runner):
    from insightshop.agent.offline import classifier

    result = runner.invoke(args=["assistant-warm"])
    assert result.exit_code == 0, result.output
    assert "intent model ready" in result.output
    assert classifier.classify("add 2 large white shirts to my cart").label == "cart_add"
