"""The cart: lines per owner (user or guest), quantity and stock rules, totals from database prices."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models.cart import MAX_LINE_QUANTITY, CartItem
from ..models.catalog import Product, ProductVariant
from . import catalog, pricing
from .actors import Actor
from .errors import Conflict, ErrorCode, Invalid, NotFound
from .vocabulary import SIZES, normalise_color, normalise_size

WRITE_ATTEMPTS = 5  # optimistic retries when a concurrent request changed the same line


@dataclass(frozen=True)
class CartLine:
    item: CartItem
    product: Product
    variant: ProductVariant
    unit_price: Decimal
    line_total: Decimal
    list_price: Decimal | None = None

    @property
    def on_sale(self) -> bool:
        return self.list_price is not None and self.unit_price < self.list_price

    @property
    def max_quantity(self) -> int:
        return max(1, min(MAX_LINE_QUANTITY, self.variant.stock))


@dataclass(frozen=True)
class Cart:
    lines: list[CartLine]
    subtotal: Decimal
    item_count: int

    @property
    def is_empty(self) -> bool:
        return not self.lines


def get_cart(actor: Actor) -> Cart:
    """The actor's cart with prices read now."""
    if not actor.has_owner:
        return Cart([], Decimal("0.00"), 0)
    items = db.session.scalars(owned_items(actor).order_by(CartItem.created_at, CartItem.id)).unique().all()
    book = pricing.PriceBook()
    lines = []
    for item in items:
        price = book.price_of(item.variant.product)
        lines.append(CartLine(item, item.variant.product, item.variant, price.price,
                              pricing.line_total(price.price, item.quantity), price.list_price))  # fmt: skip
    subtotal = pricing.quantize(sum((line.line_total for line in lines), Decimal("0")))
    return Cart(lines, subtotal, sum(line.item.quantity for line in lines))


def item_count(actor: Actor) -> int:
    """Units in the actor's cart (for the header badge)."""
    if not actor.has_owner:
        return 0
    statement = select(func.coalesce(func.sum(CartItem.quantity), 0)).where(_owner_clause(actor))
    return int(db.session.scalar(statement) or 0)


def add_item(
    actor: Actor, product_id: int, quantity: int = 1, color: str | None = None, size: str | None = None
) -> CartLine:
    """Add units of one product variant to the cart; the line total may not exceed 10 or the stock."""
    actor.require_owner()
    _check_quantity(quantity)
    product = catalog.get_product(product_id)
    variant = resolve_variant(product, color, size)
    product_id, variant_id = product.id, variant.id
    for _attempt in range(WRITE_ATTEMPTS):
        # Concurrent adds: the increment and its limits are one conditional UPDATE, so none is lost
        # and none passes a check another request already used up.
        if _increment(_owner_clause(actor), variant_id, quantity):
            db.session.commit()
            return _line(_reload(actor, variant_id))
        have = db.session.scalar(
            select(CartItem.quantity).where(_owner_clause(actor), CartItem.variant_id == variant_id)
        )
        if have is not None:
            db.session.rollback()
            _refuse_total(product_id, variant_id, have, quantity)
            continue  # the line changed under us without breaking a limit: try again
        _refuse_total(product_id, variant_id, 0, quantity)
        if _insert(CartItem(variant_id=variant_id, quantity=quantity, **_owner_fields(actor))):
            return _line(_reload(actor, variant_id))
    raise Conflict("The cart changed while adding; please try again", code=ErrorCode.CONFLICT)


def update_quantity(actor: Actor, item_id: int, quantity: int) -> CartLine:
    """Set a line's quantity (1–10, within stock)."""
    item = _get_item(actor, item_id)
    _check_quantity(quantity)
    if quantity > item.variant.stock and release_expired_holds(item.variant_id):
        db.session.refresh(item.variant)
    check_stock(item.variant.product, item.variant, quantity)
    changed = db.session.execute(
        update(CartItem)
        .where(_owner_clause(actor), CartItem.id == item_id, _stock_of(CartItem.variant_id) >= quantity)
        .values(quantity=quantity)
        .execution_options(synchronize_session=False)
    )
    if changed.rowcount != 1:
        db.session.rollback()
        item = _get_item(actor, item_id)  # gone meanwhile → 404; stock sold meanwhile → 409
        check_stock(item.variant.product, item.variant, quantity)
        raise Conflict("The cart changed meanwhile; please try again", code=ErrorCode.CONFLICT)
    db.session.commit()
    return _line(_get_item(actor, item_id))


def remove_item(actor: Actor, item_id: int, quantity: int | None = None) -> int:
    """Remove a line, or only some of its units; returns the units left on the line."""
    _get_item(actor, item_id)
    if quantity is not None and (not isinstance(quantity, int) or isinstance(quantity, bool) or quantity < 1):
        raise Invalid("quantity must be a whole number of at least 1",
                      details=[{"field": "quantity", "message": "at least 1"}])  # fmt: skip
    owned = (_owner_clause(actor), CartItem.id == item_id)
    for _attempt in range(WRITE_ATTEMPTS):
        # Relative decrements in SQL: five concurrent "remove 1" take five units, never fewer.
        if quantity is not None:
            less = db.session.execute(
                update(CartItem).where(*owned, CartItem.quantity > quantity)
                .values(quantity=CartItem.quantity - quantity).execution_options(synchronize_session=False)
            )  # fmt: skip
            if less.rowcount == 1:
                left = db.session.scalar(select(CartItem.quantity).where(*owned))
                db.session.commit()
                return int(left)
        condition = () if quantity is None else (CartItem.quantity <= quantity,)
        gone = db.session.execute(
            delete(CartItem).where(*owned, *condition).execution_options(synchronize_session=False)
        )
        db.session.commit()
        if gone.rowcount == 1:
            return 0
        if db.session.scalar(select(CartItem.id).where(*owned)) is None:
            raise NotFound(f"Cart item {item_id} does not exist")
    raise Conflict("The cart changed while removing; please try again", code=ErrorCode.CONFLICT)


def clear_cart(actor: Actor) -> int:
    """Empty the cart; returns how many lines were removed."""
    actor.require_owner()
    result = db.session.execute(delete(CartItem).where(_owner_clause(actor)))
    db.session.commit()
    return result.rowcount or 0


def merge_guest_cart(guest_id: str, user_id: int) -> int:
    """Move a guest's lines into a user's cart at login, summing lines, capped by 10 and by stock."""
    for _attempt in range(WRITE_ATTEMPTS):
        try:
            moved = _merge(guest_id, user_id)
        except IntegrityError:  # a concurrent add created the user's line first: start over
            db.session.rollback()
            continue
        db.session.commit()
        return moved
    raise Conflict("The cart changed while merging; please try again", code=ErrorCode.CONFLICT)


def _merge(guest_id: str, user_id: int) -> int:
    guest_lines = db.session.execute(
        select(CartItem.id, CartItem.variant_id, CartItem.quantity).where(CartItem.guest_id == guest_id)
    ).all()
    moved = 0
    for line_id, variant_id, units in guest_lines:
        # Claim the guest line by deleting it: two logins merging one guest cart move its units once.
        claimed = db.session.execute(
            delete(CartItem).where(CartItem.id == line_id, CartItem.guest_id == guest_id)
            .execution_options(synchronize_session=False)
        )  # fmt: skip
        if claimed.rowcount != 1:
            continue
        limit = min(MAX_LINE_QUANTITY, db.session.scalar(select(ProductVariant.stock).where(
            ProductVariant.id == variant_id)) or 0)  # fmt: skip
        mine = CartItem.quantity
        summed = db.session.execute(
            update(CartItem).where(CartItem.user_id == user_id, CartItem.variant_id == variant_id)
            .values(quantity=case((mine + units <= limit, mine + units), (mine >= limit, mine), else_=limit))
            .execution_options(synchronize_session=False)
        )  # fmt: skip
        if summed.rowcount == 0 and min(units, limit) >= 1:
            db.session.execute(
                insert(CartItem).values(user_id=user_id, variant_id=variant_id, quantity=min(units, limit))
            )  # fmt: skip
        moved += 1
    return moved


def _increment(owner, variant_id: int, quantity: int) -> bool:
    """Add units to an existing line only if the new total stays within 10 and the stock (atomic)."""
    result = db.session.execute(
        update(CartItem)
        .where(owner, CartItem.variant_id == variant_id, CartItem.quantity + quantity <= MAX_LINE_QUANTITY,
               CartItem.quantity + quantity <= _stock_of(CartItem.variant_id))
        .values(quantity=CartItem.quantity + quantity)
        .execution_options(synchronize_session=False)
    )  # fmt: skip
    return result.rowcount == 1


def _insert(item: CartItem) -> bool:
    """Insert a new line; False when a concurrent request inserted the same line first."""
    db.session.add(item)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def _refuse_total(product_id: int, variant_id: int, have: int, quantity: int) -> None:
    """Raise quantity_limit or out_of_stock when `have + quantity` breaks a limit."""
    if have + quantity > MAX_LINE_QUANTITY:
        raise Invalid(
            f"You can have at most {MAX_LINE_QUANTITY} of one item in the cart (you have {have})",
            code=ErrorCode.QUANTITY_LIMIT,
            details=[{"field": "quantity", "message": f"at most {MAX_LINE_QUANTITY - have} more"}],
        )
    variant = db.session.get(ProductVariant, variant_id, populate_existing=True)
    if have + quantity > variant.stock and release_expired_holds(variant_id):
        variant = db.session.get(ProductVariant, variant_id, populate_existing=True)
    product = db.session.get(Product, product_id)
    check_in_stock(product, variant)  # sold out: say what is left instead
    check_stock(product, variant, have + quantity)


def release_expired_holds(variant_id: int) -> int:
    """Short of stock: unpaid orders past their hold time give this variant's units back first (committed)."""
    from . import orders  # orders builds on the cart

    return orders.release_expired_holds([variant_id])


def _stock_of(variant_id_column):
    return select(ProductVariant.stock).where(ProductVariant.id == variant_id_column).scalar_subquery()


def _reload(actor: Actor, variant_id: int) -> CartItem:
    statement = owned_items(actor).where(CartItem.variant_id == variant_id)
    return db.session.scalar(statement.execution_options(populate_existing=True))


def resolve_variant(product: Product, color: str | None, size: str | None) -> ProductVariant:
    """The variant a shopper means; a product with one colour or one size needs no choice for it, and a colour not
    said is the only one in stock (in the size said) when just one is. A choice still to make offers only what is in
    stock (its details list the sold-out sizes and colours apart)."""
    colors, sizes = product.available_colors, product.available_sizes
    wanted_size = normalise_size(size) if size else (sizes[0] if len(sizes) == 1 else None)
    stocked_colors = _in_stock(product, "color", size=wanted_size)
    chosen_color = normalise_color(color) if color else (
        colors[0] if len(colors) == 1 else stocked_colors[0] if len(stocked_colors) == 1 else None)  # fmt: skip
    chosen_size = wanted_size
    problems = []
    if chosen_color is None or chosen_color not in colors:
        problems.append({"field": "selected_color", "message": f"choose one of: {', '.join(colors)}"})
    if chosen_size is None or chosen_size not in sizes:
        problems.append({"field": "selected_size", "message": f"choose one of: {', '.join(sizes)}"})
    variant = None if problems else product.variant_for(chosen_color, chosen_size)
    if variant is None:
        if not problems:
            problems.append(
                {"field": "selected_size", "message": f"{product.name} is not made in {chosen_color} / {chosen_size}"}
            )
        shade = chosen_color if chosen_color in colors else None
        choices = variant_choices(product, shade)
        if not choices["colors"]:
            raise Conflict(f"{product.name} is sold out", code=ErrorCode.OUT_OF_STOCK, details=[choices])
        if not choices["sizes"]:
            raise Conflict(f"{product.name} is sold out in {shade}; it is in stock in {', '.join(choices['colors'])}",
                           code=ErrorCode.OUT_OF_STOCK, details=[choices])  # fmt: skip
        for problem in problems:  # what the shopper may choose: only what is in stock
            if problem["message"].startswith("choose"):
                offered = choices["colors"] if problem["field"] == "selected_color" else choices["sizes"]
                problem["message"] = f"choose one of: {', '.join(offered)}"
        # Each problem also names the product and its choices, so a client can offer them as buttons.
        missing = " and ".join(dict.fromkeys("colour" if p["field"] == "selected_color" else "size" for p in problems))
        raise Invalid(f"Choose a {missing} of {product.name}: {problems[0]['message']}",
                      code=ErrorCode.VARIANT_REQUIRED, details=[{**p, **choices} for p in problems])  # fmt: skip
    return variant


def variant_choices(product: Product, color: str | None = None) -> dict:
    """What a shopper can still choose of a product: sizes in stock (in the colour, when one is chosen) and colours in
    stock, with the sold-out ones apart (never offered)."""
    sizes = _in_stock(product, "size", color=color)
    colors = _in_stock(product, "color")
    return {"product_id": product.id, "name": product.name, "sizes": sizes, "colors": colors,
            "sold_out_sizes": [s for s in product.available_sizes if s not in sizes],
            "sold_out_colors": [c for c in product.available_colors if c not in colors]}  # fmt: skip


def _in_stock(product: Product, field: str, *, color: str | None = None, size: str | None = None) -> list[str]:
    """The product's sizes or colours that have stock (of the colour or size given), in the catalog's order."""
    stocked = {getattr(v, field) for v in product.variants
               if v.stock > 0 and (color is None or v.color == color) and (size is None or v.size == size)}  # fmt: skip
    order = product.available_sizes if field == "size" else product.available_colors
    return [value for value in order if value in stocked]


def check_in_stock(product: Product, variant: ProductVariant) -> None:
    """Refuse (409 out_of_stock) a variant with no stock, naming what is left to choose instead (the nearest sizes in
    that colour first), so that an add never lands on a sold-out variant."""
    if variant.stock > 0:
        return
    choices = variant_choices(product, variant.color)
    sizes = sorted(choices["sizes"], key=lambda s: abs(SIZES.index(s) - SIZES.index(variant.size))
                   if s in SIZES and variant.size in SIZES else 0)  # fmt: skip
    what = f"{product.name} ({variant.color.capitalize()} / {variant.size})"
    if sizes:
        instead = f"; in {variant.color} it is in stock in {', '.join(sizes)}"
    elif choices["colors"]:
        instead = f"; it is in stock in {', '.join(choices['colors'])}"
    else:
        instead = ""
    raise Conflict(f"{what} is sold out{instead}", code=ErrorCode.OUT_OF_STOCK,
                   details=[{"variant_id": variant.id, "available": 0, "requested": 1, "color": variant.color,
                             "size": variant.size, **choices, "nearest_sizes": sizes}])  # fmt: skip


def _check_quantity(quantity: int) -> None:
    if not isinstance(quantity, int) or isinstance(quantity, bool) or not 1 <= quantity <= MAX_LINE_QUANTITY:
        raise Invalid(f"quantity must be a whole number from 1 to {MAX_LINE_QUANTITY}",
                      details=[{"field": "quantity", "message": f"from 1 to {MAX_LINE_QUANTITY}"}])  # fmt: skip


def check_stock(product: Product, variant: ProductVariant, wanted: int) -> None:
    """Refuse (409 out_of_stock) a quantity the variant does not have."""
    if wanted > variant.stock:
        what = f"{product.name} ({variant.color.capitalize()} / {variant.size})"
        message = f"{what} is out of stock" if variant.stock == 0 else f"Only {variant.stock} left of {what}"
        raise Conflict(message, code=ErrorCode.OUT_OF_STOCK,
                       details=[{"variant_id": variant.id, "available": variant.stock, "requested": wanted}])  # fmt: skip


def _get_item(actor: Actor, item_id: int) -> CartItem:
    actor.require_owner()
    item = db.session.scalar(owned_items(actor).where(CartItem.id == item_id))
    if item is None:  # someone else's line is indistinguishable from a missing one
        raise NotFound(f"Cart item {item_id} does not exist")
    return item


def owned_items(actor: Actor):
    """A select of the actor's cart lines, each with its variant and product (one query, not one per line)."""
    return (
        select(CartItem)
        .where(_owner_clause(actor))
        .options(joinedload(CartItem.variant).joinedload(ProductVariant.product, innerjoin=True))
    )


def _owner_clause(actor: Actor):
    if actor.user is not None:
        return CartItem.user_id == actor.user.id
    return CartItem.guest_id == actor.guest_id


def _owner_fields(actor: Actor) -> dict:
    return {"user_id": actor.user.id} if actor.user is not None else {"guest_id": actor.guest_id}


def _line(item: CartItem) -> CartLine:
    price = pricing.PriceBook().price_of(item.variant.product)
    return CartLine(item, item.variant.product, item.variant, price.price, pricing.line_total(price.price, item.quantity),
                    price.list_price)  # fmt: skip
