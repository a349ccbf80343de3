"""Grouping located boxes into visual rows, and the lines built from them (no OCR needed)."""

from __future__ import annotations

import pytest

from insightshop.services.receipts.reading.layout import Box, PageText, build_document, group_rows


def texts(rows: list[list[Box]]) -> list[list[str]]:
    return [[box.text for box in row] for row in rows]


def test_boxes_whose_vertical_centres_overlap_form_one_row_left_to_right():
    boxes = [Box("9.00", (300, 102, 340, 120)), Box("TOTAL", (10, 100, 60, 118)), Box("RM", (250, 101, 270, 119))]

    assert texts(group_rows(boxes)) == [["TOTAL", "RM", "9.00"]]


def test_rows_are_ordered_top_to_bottom():
    boxes = [Box("THANK YOU", (10, 300, 100, 318)), Box("SHOP", (10, 10, 60, 28)), Box("TOTAL", (10, 100, 60, 118))]

    assert texts(group_rows(boxes)) == [["SHOP"], ["TOTAL"], ["THANK YOU"]]


def test_boxes_one_above_the_other_stay_on_separate_rows_even_when_close():
    boxes = [Box("SUBTOTAL", (10, 100, 90, 118)), Box("TAX", (10, 112, 40, 130)), Box("8.00", (200, 100, 240, 118))]

    assert texts(group_rows(boxes)) == [["SUBTOTAL", "8.00"], ["TAX"]]


def test_a_tall_box_does_not_pull_in_a_small_row_whose_centre_it_does_not_reach():
    boxes = [Box("LOGO", (10, 0, 200, 60)), Box("small print", (220, 50, 300, 62))]

    assert texts(group_rows(boxes)) == [["LOGO"], ["small print"]]


def test_a_slightly_skewed_row_of_a_photo_stays_one_row():
    boxes = [Box("TOTAL", (10, 100, 60, 120)), Box("RM", (200, 104, 230, 124)), Box("9.00", (400, 108, 440, 128))]

    assert texts(group_rows(boxes)) == [["TOTAL", "RM", "9.00"]]


def test_empty_boxes_are_dropped():
    assert group_rows([Box("  ", (0, 0, 10, 10))]) == []


def test_a_line_joins_its_boxes_with_spaces_encloses_them_and_keeps_each_as_a_segment():
    page = PageText(
        number=1,
        size=(400, 600),
        boxes=(Box("TOTAL", (10, 100, 60, 118), 0.9), Box(" 9.00 ", (300, 102, 340, 120), 0.7)),
    )

    (line,) = build_document([page], source="ocr").lines

    assert line.text == "TOTAL 9.00"
    assert line.bbox == (10, 100, 340, 120)
    assert line.confidence == pytest.approx(0.8)
    assert line.page_size == (400, 600)
    assert [(line.text[s.start : s.end], s.bbox, s.confidence) for s in line.segments] == [
        ("TOTAL", (10, 100, 60, 118), 0.9),
        ("9.00", (300, 102, 340, 120), 0.7),
    ]


def test_lines_of_several_pages_are_numbered_through_with_offsets_into_the_document_text():
    pages = [
        PageText(1, (100, 100), (Box("A", (0, 0, 10, 10)), Box("B", (0, 20, 10, 30)))),
        PageText(2, (100, 100), (Box("C", (0, 0, 10, 10)),)),
    ]

    document = build_document(pages, source="pdf_text")

    assert [(line.index, line.page, line.char_offset) for line in document.lines] == [(0, 1, 0), (1, 1, 2), (2, 2, 4)]
    assert document.text == "A\nB\nC" and document.pages == 2
    assert all(line.confidence is None for line in document.lines)
