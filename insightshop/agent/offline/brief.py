"""The shopping brief: what a conversation has established so far, kept in the conversation's context under
"brief" (JSON-safe) and edited by every message. Sections:

frame     the search frame: department, types, colors / colors_out, size, min_price / max_price (with under, the
          amount said), materials / materials_out, needs (occasion attributes: formal, warm, waterproof…), sort,
          on_sale, query (words the rules searched for), exclude_ids (products not to show again), page ("show me
          more": the page of results shown last; any other edit starts again from the first)
order     the order in scope: {order_id}
receipts  the receipt scope: {date_from, date_to, category, merchant, item_query, measure}
admin     the admin's selection and period: {selection: [product ids], period, compare_to, figure, group_by}

The last list shown and the last cart line stay where conversation_context.py keeps them (last_shown, last_line).
The frame becomes search_products arguments (search_arguments) and a shopper-readable line (describe):
"men's smart clothes, under $150, no wool". Lexicons (data/lexicons/*.json) say what needs and materials mean.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

from ...services.vocabulary import CLOTHING_TYPE_LABELS

SECTIONS = ("frame", "order", "receipts", "admin")
LEXICONS = Path(__file__).with_name("data") / "lexicons"
# Edits that hold across new searches until lifted (a material someone reacts to is ruled out for every garment).
STANDING = ("materials_out",)
SINGLE_ARGUMENTS = {"category": "department", "size": "size", "min_price": "min_price", "max_price": "max_price",
                    "sort_by": "sort", "on_sale": "on_sale", "in_stock": "in_stock", "query": "query", "page": "page"}  # fmt: skip
DEPARTMENT_WORDS = {"men": "men's", "women": "women's", "kids": "kids'"}


def load(context: dict) -> dict:
    """A copy of the conversation's brief, every section present."""
    stored = context.get("brief") if isinstance(context.get("brief"), dict) else {}
    brief = copy.deepcopy(stored)
    for section in SECTIONS:
        if not isinstance(brief.get(section), dict):
            brief[section] = {}
    return brief


def save(context: dict, brief: dict) -> dict:
    """The context with this brief (empty sections dropped)."""
    kept = {section: value for section, value in brief.items() if value}
    return {**context, "brief": kept}


@cache
def lexicon(name: str) -> dict:
    """One lexicon file of data/lexicons (its "_doc" dropped)."""
    data = json.loads((LEXICONS / f"{name}.json").read_text())
    return {key: value for key, value in data.items() if not key.startswith("_")}


def needs() -> dict[str, dict]:
    return lexicon("needs")["needs"]


def fabrics_of(materials: list[str]) -> list[str]:
    """The catalog fabrics a list of material names means ("wool" → wool, cashmere)."""
    table = lexicon("materials")["materials"]
    return list(dict.fromkeys(f for m in materials for f in table.get(m, {}).get("fabrics", [m])))


def colour_family(colour: str) -> list[str]:
    """The colour and every colour sharing a family with it (navy → navy, blue)."""
    family = [colour]
    for members in lexicon("colours")["families"].values():
        if colour in members:
            family += [c for c in members if c not in family]
    return family


# The frame and the search it asks for -----------------------------------------------------------------------------


def frame_from_arguments(arguments: dict) -> dict:
    """The frame a search_products call describes (what the rules planned, read back into the brief)."""
    frame: dict = {}
    for argument, key in SINGLE_ARGUMENTS.items():
        if arguments.get(argument) not in (None, "", False):
            frame[key] = arguments[argument]
    types = arguments.get("clothing_types") or ([arguments["clothing_type"]] if arguments.get("clothing_type") else [])
    colors = arguments.get("colors") or ([arguments["color"]] if arguments.get("color") else [])
    for key, values in (("types", types), ("colors", colors), ("colors_out", arguments.get("exclude_colors")),
                        ("materials", arguments.get("materials")), ("exclude_ids", arguments.get("exclude_product_ids"))):  # fmt: skip
        if values:
            frame[key] = list(values)
    if arguments.get("exclude_materials"):
        frame["fabrics_out"] = list(arguments["exclude_materials"])
    return frame


def new_frame(previous: dict, **fields) -> dict:
    """A fresh frame that keeps the standing exclusions of the previous one."""
    frame = {key: previous[key] for key in STANDING if previous.get(key)}
    frame.update({key: value for key, value in fields.items() if value not in (None, [], "", False)})
    return frame


def search_arguments(frame: dict) -> dict:
    """search_products arguments for a frame: its needs read through the needs lexicon, materials as fabrics."""
    arguments: dict = {}
    for argument, key in SINGLE_ARGUMENTS.items():
        if frame.get(key) not in (None, "", False):
            arguments[argument] = frame[key]
    wanted_needs = [needs()[n] for n in frame.get("needs", []) if n in needs()]
    lead = wanted_needs[0] if wanted_needs else {}
    if not frame.get("department") and lead.get("department"):
        arguments["category"] = lead["department"]
    types = frame.get("types") or lead.get("types") or []
    _one_or_many(arguments, "clothing_type", "clothing_types", types)
    _one_or_many(
        arguments, "color", "colors", [c for c in frame.get("colors", []) if c not in frame.get("colors_out", [])]
    )
    materials_in = fabrics_of(frame.get("materials", [])) or [
        m for m in lead.get("materials", []) if not frame.get("types")
    ]
    materials_out = fabrics_of(frame.get("materials_out", [])) + list(frame.get("fabrics_out", []))
    if not frame.get("materials"):
        materials_out += [m for m in lead.get("materials_out", []) if m not in materials_in]
    materials_in = [m for m in materials_in if m not in materials_out]
    if materials_in:
        arguments["materials"] = materials_in
    if materials_out:
        arguments["exclude_materials"] = list(dict.fromkeys(materials_out))
    if frame.get("colors_out"):
        arguments["exclude_colors"] = list(frame["colors_out"])
    if lead.get("seasons") and not frame.get("seasons_off"):
        arguments["seasons"] = list(lead["seasons"])
    if frame.get("exclude_ids"):
        arguments["exclude_product_ids"] = list(frame["exclude_ids"])
    return arguments


def _one_or_many(arguments: dict, one: str, many: str, values: list[str]) -> None:
    values = list(dict.fromkeys(values))
    if len(values) == 1:
        arguments[one] = values[0]
    elif values:
        arguments[many] = values


def legacy_parts(frame: dict) -> dict:
    """The frame as the phrase rules remember a search (context["last_search"]), so their follow-ups still work."""
    parts = {
        argument: frame[key] for argument, key in SINGLE_ARGUMENTS.items() if frame.get(key) not in (None, "", False)
    }
    parts.pop("query", None)
    if len(frame.get("types", [])) == 1:
        parts["clothing_type"] = frame["types"][0]
    if len(frame.get("colors", [])) == 1:
        parts["color"] = frame["colors"][0]
    return parts


# The frame in a shopper's words ------------------------------------------------------------------------------------


def describe(frame: dict) -> str:
    """ "men's smart clothes, under $150, no wool" — what the brief now is, in words a shopper reads."""
    head = []
    if frame.get("department"):
        head.append(DEPARTMENT_WORDS.get(frame["department"], frame["department"]))
    if frame.get("colors"):
        head.append(" or ".join(frame["colors"]))
    head += [needs()[n]["label"] for n in frame.get("needs", [])[:1] if n in needs() and _label_leads(needs()[n])]
    kinds = [CLOTHING_TYPE_LABELS.get(t, t).lower() for t in frame.get("types", [])]
    head.append(" or ".join(kinds) if kinds else "clothes")
    tail = [needs()[n]["label"] for n in frame.get("needs", [])[:1] if n in needs() and not _label_leads(needs()[n])]
    words = [" ".join(head + tail)]
    if frame.get("size"):
        words.append(f"size {frame['size']}")
    words.append(_price_words(frame))
    if frame.get("on_sale"):
        words.append("on sale")
    if frame.get("materials"):
        words.append("in " + " or ".join(frame["materials"]))
    out = [*frame.get("materials_out", []), *frame.get("fabrics_out", [])]
    if out:
        words.append("no " + " or ".join(dict.fromkeys(out)))
    if frame.get("colors_out"):
        words.append("not " + " or ".join(frame["colors_out"]))
    return ", ".join(w for w in words if w)


def _label_leads(need: dict) -> bool:
    """ "smart clothes", "warm coats" lead with the label; "clothes for the rain" follow with it."""
    return not need["label"].startswith(("for ", "in "))


def money(amount) -> str:
    value = float(amount)
    return f"${value:.0f}" if value == int(value) else f"${value:.2f}"


def _price_words(frame: dict) -> str:
    high = frame.get("under", frame.get("max_price"))
    low = frame.get("min_price")
    if low is not None and high is not None:
        return f"{money(low)} to {money(high)}"
    if high is not None:
        return f"under {money(high)}"
    if low is not None:
        return f"over {money(low)}"
    return ""
