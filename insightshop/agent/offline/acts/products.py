"""Acts for questions about products: sizes (size guide, numeric and age sizes), details and variants.

size_advice      "how do your sizes run?", "what size for a 7 year old?", "I'm 5'4 and 60kg what size dress",
                 "what's a 32 waist in your sizes" — answered from the size guide (services/size_guide.py, read through
                 sizes.py), never refused.
product_details  a question about a named or just-shown product: its colours ("does it come in other colours?" — one
                 colour only is said so), sizes left ("what sizes are left in the navy one?" — sold-out sizes said
                 apart, never offered), qualities ("is the puffer warm?" — from its fabric, season and description).
                 The product is searched for by its name; the answer is composed from the result (PlannedCall.then).

Both return None when the message is not what they answer (an add, a removal, no product to talk about): the
phrase rules answer it then."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ....services import shop_policies, size_guide
from ....services.vocabulary import CLOTHING_TYPE_LABELS, normalise_color, normalise_size
from .. import brief, entities, intent, rules, sizes
from ..product_options import OptionsQuestion
from ..rule_words import ADVICE
from ..rules import Interpretation, PlannedCall
from . import act

ASPECTS = Path(__file__).parent.parent / "data" / "lexicons" / "product_aspects.json"
DEPARTMENT_WORDS = {"men": "men's", "women": "women's", "kids": "kids'"}
DEPARTMENT_TITLES = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
# The columns a size answer quotes, per department (the guide has more: the size guide page shows them all).
QUOTED = {"women": ("UK/US", "Bust (in)", "Waist (in)", "Hips (in)"), "men": ("Chest (in)", "Waist (in)", "Neck (in)"),
          "kids": ("Age (years)", "Height (cm)")}  # fmt: skip
WOMEN_ONLY = frozenset(("dress", "blouse", "skirt"))


def _not_a_question_for_us(msg: rules.Msg) -> bool:
    """An add, a removal, a cart request or a review: the rules answer it, whatever words of size it has."""
    return (msg.has(rules.ADD) or msg.has(rules.REMOVE) or msg.has(rules.CART_RX) or msg.has(rules.REVIEW_VERB)
            or rules.RATING.search(msg.low) is not None)  # fmt: skip


# "is the puffer warm?", "does it come in blue": a question about one product (the, this, it…), never a search for
# some ("got any cashmere sweaters?", "I'm after a black leather jacket").
DEFINITE = re.compile(r"\b(?:the|teh|this|that|these|those|it|its|your|ur|yours|first|second|third|last)\b")


def _context(request, **remember) -> dict:
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context.update(remember)
    return context


# Size advice ----------------------------------------------------------------------------------------------------


@act("size_advice")
def size_advice(request, _guess) -> Interpretation | None:
    """How sizes run, which size a measurement, an age, a height or a numeric size is, from the size guide."""
    msg = rules.Msg(request.norm.text)
    if _not_a_question_for_us(msg) or not _asks_about_size(request.plain) or intent.NOT_SOLD.search(request.plain):
        return None  # "how's the sizing on the chelsea boots?": the rules say the shop sells none
    kind = msg.types[-1] if msg.types else None
    talked = {} if kind or msg.category else sizes.talked_about(request)
    department = msg.category or talked.get("category")
    kind = kind or talked.get("clothing_type")
    if department is None and kind in WOMEN_ONLY:  # "what size dress": the women's guide (a child's age says kids)
        department = "women"
    # "I'm a size 10, what size should I get?": a bare number asked about is read in the adult departments
    mention, found = sizes.readings(request.norm.original, [department] if department else None, kind, bare=True)
    context = _context(request)
    if found:
        text = _reading_answer(found)
    elif mention is not None:
        text = _by_measurements(department, mention)
    elif shop_policies.topic_of(request.norm.text):  # the shop's own answer (sizes from the guide, exchanges…)
        call = PlannedCall("search_shop_policies_and_faqs", {"query": request.norm.text[:500]})
        return Interpretation(calls=[call], context={**context, "last_action": "search_shop_policies_and_faqs"})
    else:  # a sizes question the shop's answers miss ("do ur sizes come up small"): the guide, read here
        text = _how_sizes_run(department, kind)
    letters = {r.letter for r in found.values()}
    if len(letters) == 1:  # the size read is the brief's size from now on ("show me some hoodies" next)
        shopping = brief.load(context)
        shopping["frame"]["sizes"] = sorted(letters)
        if len(found) == 1:
            shopping["frame"].setdefault("department", next(iter(found)))
        context = brief.save(context, shopping)
    return Interpretation(reply=text, context=context)


def _asks_about_size(text: str) -> bool:
    """A size question: a size-question word ("what size", "run small", "size guide") in a question or a plea."""
    lexicon = sizes.lexicon()
    return _says(text, lexicon["advice_words"]) and (
        intent.QUESTION.search(text) is not None or _says(text, lexicon["advice_cues"]))  # fmt: skip


def _says(text: str, words) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) for word in words)


def _row(department: str, size: str) -> str:
    """ "ages 7–8, height 119–130 cm": a size's row of the guide, in the quoted columns."""
    table = size_guide.table_for(department)
    if table is None or size not in table.rows:
        return ""
    cells = dict(zip(table.columns, table.rows[size], strict=True))
    return ", ".join(_cell(heading, cells[heading]) for heading in QUOTED[department] if heading in cells)


def _cell(heading: str, value: str) -> str:
    name, _, unit = heading.partition(" (")
    unit = unit.rstrip(")")
    if name == "Age":
        return f"ages {value}"
    if name == "UK/US":
        uk, _, us = value.partition(" / ")
        return f"UK {uk} / US {us}"
    return f"{name.lower()} {value} {unit}".strip()


def _heading(heading: str) -> str:
    """ "Chest (in)" → "chest in inches", "UK/US" → "UK / US dress size", "Age (years)" → "age"."""
    name, _, unit = heading.partition(" (")
    unit = {"in": "inches", "cm": "cm"}.get(unit.rstrip(")"))
    if name == "UK/US":
        return "UK / US dress size"
    return f"{name.lower()} in {unit}" if unit else name.lower()


def _reading_answer(found: dict) -> str:
    parts = [sizes.sentence(found)]
    for department, reading in found.items():
        row = _row(department, reading.letter)
        if row:
            parts.append(f"Our {DEPARTMENT_WORDS[department]} {reading.letter} is {row}.")
    notes = {size_guide.table_for(d).note for d in found if size_guide.table_for(d)}
    parts.extend(sorted(notes))
    return " ".join(parts)


def _by_measurements(department: str | None, mention: sizes.Mention) -> str:
    """A height or weight the guide has no column for (adults), or a number past it: the measurements it goes by."""
    wanted = [department] if department else ["women", "men"]
    what = "height and weight" if mention.measure in ("height", "weight") else "that number"
    lead = f"Our size guide doesn't go by {what} for adults" if mention.measure in ("height", "weight") else (
        "That is past our size guide")  # fmt: skip
    parts = [f"{lead}: our sizes run {', '.join(size_guide.SIZE_TABLES[0].rows)} and go by body measurements."]
    for dept in wanted:
        parts.append(_table_summary(dept))
    parts.append("Between two sizes? Take the larger one for a relaxed fit, the smaller for a close fit.")
    return " ".join(parts)


def _table_summary(department: str) -> str:
    table = size_guide.table_for(department)
    if table is None:
        return ""
    rows = "; ".join(f"{size} {_row(department, size)}" for size in table.rows)
    return f"{DEPARTMENT_TITLES[department]}: {rows}."


def _how_sizes_run(department: str | None, kind: str | None) -> str:
    """How the shop's sizes run, in general or for one department."""
    lead = size_guide.FIT_TIPS[2]
    tables = [size_guide.table_for(department)] if department else list(size_guide.size_tables())
    parts = [lead]
    for table in tables:
        first = table.columns[0]
        ranges = ", ".join(f"{size} {_cell(first, values[0]) if first == 'UK/US' else values[0]}"
                           for size, values in table.rows.items())  # fmt: skip
        parts.append(f"{table.title}, by {_heading(table.columns[0])}: {ranges}.")
    if kind and department:
        parts.append(size_guide.table_for(department).note)
    parts.append("Tell me a measurement, a UK/US size or a child's age and I'll give you the letter; the size guide "
                 "page has every measurement and how to measure.")  # fmt: skip
    return " ".join(parts)


# Product details -----------------------------------------------------------------------------------------------


@cache
def aspects() -> dict[str, dict]:
    """The aspects a product question can ask about (data/lexicons/product_aspects.json)."""
    return json.loads(ASPECTS.read_text())["aspects"]


def aspect_of(text: str) -> str | None:
    """The aspect asked about: the one whose words come first in the message (longer phrasings before their words)."""
    found = []
    for name, spec in aspects().items():
        for weak, words in ((False, spec["asked"]), (True, spec.get("weak", ()))):
            for word in words:
                match = re.search(rf"\b{re.escape(word)}", text)
                if match:
                    found.append((weak, match.start(), -len(word), name))
    return min(found)[3] if found else None


@act("product_details")
def product_details(request, _guess) -> Interpretation | None:
    """A question about one product named or just shown: its colours, sizes left, or a quality."""
    msg = rules.Msg(request.norm.text)
    if _not_a_question_for_us(msg) or not intent.QUESTION.search(request.plain) or not DEFINITE.search(msg.norm):
        return None
    aspect = aspect_of(request.plain)
    product = _product_in_question(request, msg)
    if product is None:
        return _garment_question(request, msg, aspect)
    if aspect is None:
        return None
    words = re.findall(r"[a-z0-9]+", product.name.lower())
    said = set(re.findall(r"[a-z0-9]+", request.norm.text.lower()))
    # the name's words the shopper said ("puffer"), else its words that are no garment ("quilted")
    terms = [w for w in words if w in said and w != product.clothing_type] or [
        w for w in words if not rules.clothing_type(w)]  # fmt: skip
    arguments = {"clothing_type": product.clothing_type}
    if msg.category or not terms:
        arguments["category"] = product.category
    if terms:
        arguments["query"] = " ".join(terms)
    color = _asked_color(msg, product)
    if aspect in ("colors", "sizes", "stock"):
        size = msg.size if aspect != "colors" else None
        line = request.context.get("last_line") if isinstance(request.context.get("last_line"), dict) else {}
        if aspect == "stock" and size is None and line.get("product_id") == product.id:
            size, color = line.get("size"), color or line.get("color")  # "is it in stock?" of the line just added
        then = OptionsQuestion(aspect, product_id=product.id, color=color, size=size, named=tuple(terms) or None)
    else:
        then = QualityAnswer(aspect, product.id)
    context = _context(request, last_action="search_products", last_product_id=product.id)
    context = brief.save(context, brief.load(context))
    return Interpretation(calls=[PlannedCall("search_products", arguments, then=then)], context=context)


# "do you have the grey hoodie in XL?", "does the parka come in red?": the size or colour asked about, said last.
ASKED_VALUE = re.compile(r"\bin\s+(?:an?\s+|size\s+)?(?P<value>[a-z0-9]+)\W*$")


def _garment_question(request, msg: rules.Msg, aspect: str | None) -> Interpretation | None:
    """A question about a garment said with no one product ("what sizes does the grey hoodie come in?", "do you
    have the grey hoodie in XL?"): the shop's products of that kind are searched and the question is answered for
    the best match, its sizes or colours in stock (OptionsQuestion)."""
    if not msg.types or msg.has(ADVICE):
        return None
    asked = ASKED_VALUE.search(msg.norm)
    value = asked.group("value") if asked else None
    size, color = (normalise_size(value), normalise_color(value)) if value else (None, None)
    aspect = aspect or ("colors" if color else "sizes" if size else None)
    if aspect not in ("colors", "sizes", "stock"):
        return None
    if aspect == "colors" and size:
        aspect = "sizes"
    colors = [c for c in msg.colors if c != color]
    arguments = {"clothing_type": msg.types[-1]}
    if msg.category:
        arguments["category"] = msg.category
    if colors and not (aspect == "colors" and not color):
        arguments["color"] = colors[0]
    terms = [w for w in rules.search_parts(msg).get("terms") or () if w != msg.types[-1] and w not in msg.types]
    if terms:
        arguments["query"] = " ".join(terms)
    then = OptionsQuestion(aspect, color=color or (colors[0] if colors and aspect != "colors" else None), size=size,
                           named=tuple(terms) or None)  # fmt: skip
    context = _context(request, last_action="search_products")
    context = brief.save(context, brief.load(context))
    return Interpretation(calls=[PlannedCall("search_products", arguments, then=then)], context=context)


def _asked_color(msg: rules.Msg, product) -> str | None:
    """The colour a question is about ("what sizes are left in the navy one?"), if the product comes in it."""
    return next((c for c in msg.colors if c in product.colors), None)


def _product_in_question(request, msg: rules.Msg):
    """The product a question is about: picked from the list just shown ("the second one", "the navy one"), named
    ("the puffer jacket"), or referred to ("it": the line just added, the product just shown)."""
    by_id = {p.id: p for p in request.vocabulary.products}
    shown = [
        by_id[p["id"]] for p in request.context.get("last_shown") or [] if isinstance(p, dict) and p.get("id") in by_id
    ]
    ordinal = rules.ORDINAL.search(msg.norm)
    if ordinal and shown and -len(shown) <= rules.ORDINALS[ordinal.group(1)] < len(shown):
        return shown[rules.ORDINALS[ordinal.group(1)]]
    named = _named(request, msg, shown)
    if named is not None:
        return named
    if shown and (msg.colors or msg.types):
        picked = [p for p in shown if (not msg.colors or msg.colors[0] in p.colors)
                  and (not msg.types or p.clothing_type == msg.types[-1])]  # fmt: skip
        if picked and (len(picked) == 1 or re.search(r"\b(?:the|that|this)\s+(?:\w+\s+)?(?:one|ones)\b", msg.norm)):
            return picked[0]
    if re.search(r"\b(?:these|those|them|they)\b", msg.norm):
        return None  # "do you have these for adults?": the list, not one product
    if re.search(r"\b(?:it|this|that)\b", msg.norm) or not msg.types:
        return _referred(request, msg, by_id, shown)
    return None


def _named(request, msg: rules.Msg, shown: list):
    """A product named in the message (the one shown, else the one of that name in the colour and department said)."""
    mentions = entities.product_mentions(request.norm.text, request.vocabulary, msg.types or None)
    if len(mentions) == 1 and (mentions[0].score == 1 or mentions[0].telling or mentions[0].hits >= 2):
        family = list(mentions[0].products)
    else:
        family = _named_by_a_word(request, msg)
    if not family:
        return None
    in_view = [p for p in family if p in shown]
    fitting = in_view or entities.choose(tuple(family), msg.colors[0] if msg.colors else None, msg.category)
    return fitting[0] if fitting else None


def _referred(request, msg: rules.Msg, by_id: dict, shown: list):
    """ "it": the line just added, or the one product just shown."""
    line = request.context.get("last_line") if isinstance(request.context.get("last_line"), dict) else {}
    if request.context.get("last_action") == "cart_add_item" and line.get("product_id") in by_id:
        return by_id[line["product_id"]]
    last = request.context.get("last_product_id")
    if last in by_id and (len(shown) == 1 or shown and shown[0].id == last and msg.has(rules.REFERENCE)):
        return by_id[last]
    return None


def _named_by_a_word(request, msg: rules.Msg) -> list:
    """ "the trench coat", "the puffer": a garment said with a word of one product name of that garment (a word the
    shop also reads as the garment itself), the products of that one name."""
    if not msg.types:
        return []
    kind = msg.types[-1]
    said = set(re.findall(r"[a-z]+", request.norm.text.lower())) - {kind, f"{kind}s", "the", "a", "in", "and", "of"}
    named: dict[str, list] = {}
    for product in request.vocabulary.products:
        if product.clothing_type == kind and said & set(re.findall(r"[a-z]+", product.name.lower())):
            named.setdefault(product.name, []).append(product)
    return next(iter(named.values())) if len(named) == 1 else []


@dataclass(frozen=True)
class QualityAnswer:
    """ "is the puffer warm?": the product found, answered from its fabric, season and description."""

    aspect: str
    product_id: int

    def __call__(self, result: dict) -> tuple[list, str]:
        products = [p for p in result.get("products") or [] if isinstance(p, dict)]
        product = next((p for p in products if p.get("id") == self.product_id), None)
        if product is None:
            return [], "I couldn't find that product in the shop right now."
        return [], quality_sentence(product, self.aspect)

    def label(self) -> dict:
        return {"quality": self.aspect, "product_id": self.product_id}


def quality_sentence(product: dict, aspect: str) -> str:
    """A yes or no from the product's own data when the aspect has evidence words, then the facts it rests on."""
    spec = aspects().get(aspect) or {}
    fabric, season = (product.get("fabric") or "").lower(), (product.get("season") or "").lower()
    description = product.get("description") or ""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", description) if s.strip()]
    clues = [w.lower() for w in (*spec.get("yes_words", ()), *spec.get("asked", ()))]
    evidence = next((s for s in sentences if any(re.search(rf"\b{re.escape(c)}", s.lower()) for c in clues)), None)
    said_yes = fabric in spec.get("yes_fabrics", ()) or season in spec.get("yes_seasons", ()) or (
        evidence is not None and any(re.search(rf"\b{re.escape(w)}", evidence.lower()) for w in spec.get("yes_words", ())))  # fmt: skip
    said_no = season in spec.get("no_seasons", ()) and not said_yes
    title = f"{product['name']} ({DEPARTMENT_TITLES.get(product.get('category'), '')})".replace(" ()", "")
    facts = [f"{fabric}" if fabric else None, _season_words(season)]
    fact = " and ".join(f for f in facts if f)
    lead = spec.get("yes") if said_yes and spec.get("yes") else spec.get("no") if said_no and spec.get("no") else None
    text = f"{lead}: the {title}" if lead else f"The {title}"
    text += f" is {fact}." if fact else "."
    if evidence:
        text += f" {evidence}"
    if aspect == "fit":
        text += f" {size_guide.FIT_TIPS[2]}"
    return text


def _season_words(season: str) -> str | None:
    if not season:
        return None
    return "made for any season" if season == "all-season" else f"made for {season}"


# A shopper's stock question about a kind of garment ------------------------------------------------------------------


def stock_of_a_kind(request, msg: rules.Msg) -> Interpretation | None:
    """ "how many navy hoodies in M are left?" from a shopper: the products of that kind with that colour and size in
    stock, each with how many are left (the product page shows the same counts)."""
    if not msg.types or _not_a_question_for_us(msg):
        return None
    color = msg.colors[0] if msg.colors else None
    kind, size = msg.types[-1], msg.size
    if not size:  # "black jeans in 32": the guide's letter for the departments that make the garment
        adults = None if msg.category else sizes.making(request, kind, None)
        found = sizes.resolve(request.norm.text, msg.category, kind, departments=adults)
        size = found[0] if found else None
    arguments: dict = {"clothing_type": kind}
    for key, value in (("color", color), ("size", size), ("category", msg.category)):
        if value:
            arguments[key] = value
    context = _context(request, last_action="search_products")
    context = brief.save(context, brief.load(context))
    then = StockAnswer(kind, color, size)
    return Interpretation(calls=[PlannedCall("search_products", arguments, then=then)], context=context)


@dataclass(frozen=True)
class StockAnswer:
    """How many are left of a colour and size in each product found; none left said plainly."""

    kind: str
    color: str | None
    size: str | None

    def label(self) -> dict:
        return {"stock_of": self.kind, "color": self.color, "size": self.size}

    def __call__(self, result: dict) -> tuple[list, str]:
        wanted = " ".join(filter(None, [self.color, CLOTHING_TYPE_LABELS.get(self.kind, self.kind).lower()]))
        wanted += f" in {self.size}" if self.size else ""
        counts = []
        for product in result.get("products") or []:
            left = sum(int(v.get("stock") or 0) for v in product.get("variants") or []
                       if (not self.color or v.get("color") == self.color) and (not self.size or v.get("size") == self.size))  # fmt: skip
            if left > 0:
                department = DEPARTMENT_WORDS.get(product.get("category"), "")
                counts.append(f"{product['name']} ({department}, ${product.get('price')}): {left} left")
        if not counts:
            return [], f"No {wanted} are in stock right now. Want me to look for another colour or size?"
        return [], f"In stock, {wanted}: " + "; ".join(counts[:5]) + (
            "." if len(counts) <= 5 else f"; and {len(counts) - 5} more."
        )
