"""The offline engine grows by data, not by code: no module of it over 800 lines (issue 28's shape of the house)."""

from __future__ import annotations

from pathlib import Path

import insightshop.agent.offline as offline

LIMIT = 800


def test_no_module_of_the_offline_engine_is_over_800_lines():
    root = Path(offline.__file__).parent
    sizes = {str(p.relative_to(root)): len(p.read_text().splitlines()) for p in root.rglob("*.py")}
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
    assert len(sizes) >= 20  # the rules live in modules of their own, not one file


def test_phrasings_are_data_files_the_classifier_reads():
    examples = Path(offline.__file__).parent / "data" / "examples"
    assert sum(len(p.read_text().splitlines()) for p in examples.glob("*.jsonl")) >= 5000
