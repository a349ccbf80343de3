"""The size guide: body measurements for each of the shop's sizes, per department.

One data module: the /size-guide page, the search_shop_policies_and_faqs tool and the assistant all read it."""

from __future__ import annotations

from dataclasses import dataclass

from .vocabulary import CATEGORY_LABELS


@dataclass(frozen=True)
class SizeTable:
    category: str
    title: str
    columns: tuple[str, ...]  # the measurement headings, after the "Size" column
    rows: dict[str, tuple[str, ...]]  # size -> one value per column
    note: str

    @property
    def label(self) -> str:
        return CATEGORY_LABELS[self.category]


SIZE_TABLES: tuple[SizeTable, ...] = (
    SizeTable(
        "women",
        "Women",
        ("UK/US", "Bust (in)", "Waist (in)", "Hips (in)", "Bust (cm)", "Waist (cm)", "Hips (cm)"),
        {
            "XS": ("6 / 2", "31–32", "24–25", "34–35", "79–81", "61–64", "86–89"),
            "S": ("8 / 4", "33–34", "26–27", "36–37", "84–86", "66–69", "91–94"),
            "M": ("10–12 / 6–8", "35–37", "28–30", "38–40", "89–94", "71–76", "97–102"),
            "L": ("14 / 10", "38–40", "31–33", "41–43", "97–102", "79–84", "104–109"),
            "XL": ("16 / 12", "41–43", "34–36", "44–46", "104–109", "86–91", "112–117"),
            "XXL": ("18 / 14", "44–46", "37–39", "47–49", "112–117", "94–99", "119–124"),
        },
        "Between two sizes? Take the larger one for a relaxed fit, the smaller for a close fit.",
    ),
    SizeTable(
        "men",
        "Men",
        ("Chest (in)", "Waist (in)", "Neck (in)", "Chest (cm)", "Waist (cm)", "Neck (cm)"),
        {
            "XS": ("33–35", "27–28", "14", "84–89", "69–71", "35–36"),
            "S": ("36–38", "29–31", "14.5–15", "91–97", "74–79", "37–38"),
            "M": ("39–41", "32–34", "15.5–16", "99–104", "81–86", "39–41"),
            "L": ("42–44", "35–37", "16.5–17", "107–112", "89–94", "42–43"),
            "XL": ("45–47", "38–40", "17.5–18", "114–119", "97–102", "44–46"),
            "XXL": ("48–50", "41–43", "18.5–19", "122–127", "104–109", "47–48"),
        },
        "Jeans and pants follow the waist column; shirts the chest and neck.",
    ),
    SizeTable(
        "kids",
        "Kids",
        ("Age (years)", "Height (in)", "Height (cm)", "Chest (in)"),
        {
            "XS": ("3–4", "37–41", "94–104", "21–22"),
            "S": ("5–6", "42–46", "107–117", "23–24"),
            "M": ("7–8", "47–51", "119–130", "25–26"),
            "L": ("9–10", "52–56", "132–142", "27–28"),
            "XL": ("11–12", "57–61", "145–155", "29–30"),
        },
        "Kids' sizes go by age and height; if your child is tall for their age, go by height.",
    ),
)

# The kids' size for each age in years (from the table above), for "for my 6-year-old".
KIDS_AGE_SIZES = {age: size for size, ages in (("XS", (2, 3, 4)), ("S", (5, 6)), ("M", (7, 8)), ("L", (9, 10)),
                                                ("XL", (11, 12, 13))) for age in ages}  # fmt: skip

# Shoe sizes (sneakers are sold in the letter sizes): size -> (UK, US), per adult department. Read by the assistant
# for "size 10 trainers"; kids' shoes go by age like the rest of the kids' range.
SHOE_SIZES = {
    "men": {"XS": ("5–6", "6–7"), "S": ("7", "8"), "M": ("8–9", "9–10"), "L": ("10", "11"), "XL": ("11", "12"),
            "XXL": ("12–13", "13–14")},
    "women": {"XS": ("2–3", "4–5"), "S": ("4", "6"), "M": ("5", "7"), "L": ("6", "8"), "XL": ("7", "9"),
              "XXL": ("8", "10")},
}  # fmt: skip
SHOE_COLUMNS = ("Shoe (UK)", "Shoe (US)")

FIT_TIPS = (
    "Measure over light clothing with a soft tape, keeping it level and snug but not tight.",
    "Chest or bust: around the fullest part. Waist: around the narrowest part. Hips: around the fullest part.",
    "Sizes run true to size; each product page says when a piece is cut oversized or slim.",
)


def size_tables() -> tuple[SizeTable, ...]:
    """The size tables, women, men, kids (every size the shop sells appears in its department's table)."""
    return SIZE_TABLES


def table_for(category: str) -> SizeTable | None:
    """One department's size table."""
    return next((table for table in SIZE_TABLES if table.category == category), None)


def column(category: str, heading: str) -> dict[str, str]:
    """One column of a department's guide, size -> value ("Waist (in)" -> {"S": "29–31", …}); "UK/US#1" is the second
    part of a "UK / US" cell, "Shoe (UK)" / "Shoe (US)" the shoe sizes. Empty when the department has no such column."""
    name, _, part = heading.partition("#")
    if name in SHOE_COLUMNS:
        index = SHOE_COLUMNS.index(name)
        return {size: values[index] for size, values in SHOE_SIZES.get(category, {}).items()}
    table = table_for(category)
    if table is None or name not in table.columns:
        return {}
    index = table.columns.index(name)
    cells = {size: values[index] for size, values in table.rows.items()}
    if part:
        cells = {size: (cell.split("/") + [""])[int(part)].strip() for size, cell in cells.items()}
    return cells


def kids_size_for_age(age: int) -> str | None:
    """The kids' size for a child of this age, or None outside the range the shop makes."""
    return KIDS_AGE_SIZES.get(age)
