"""OCR with RapidOCR (PP-OCR models on ONNX Runtime), from the models packaged in its wheel: no network, ever.

The engine is expensive to build (three ONNX sessions), so one is created per process, lazily, under a lock.
Calls are serialised too: ONNX Runtime already spreads one image over the cores, and concurrent runs on a
small machine only thrash.
"""

from __future__ import annotations

import logging
import math
import threading
from pathlib import Path
from typing import Any

from PIL import Image

from .errors import UnreadableDocument
from .layout import Box

# Packaged in the rapidocr 3.x wheel. Naming each file stops RapidOCR from resolving (and downloading) its defaults.
_MODEL_FILES = {
    "Det.model_path": "PP-OCRv6_det_small.onnx",
    "Cls.model_path": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
    "Rec.model_path": "PP-OCRv6_rec_small.onnx",
}

# RapidOCR shrinks any image to 2000 px on its longest side, which blurs long till receipts (a 600 x 3700 px
# photo becomes 330 px wide). The reader caps pixels instead (images.MAX_WORKING_PIXELS); measured on a long
# receipt this takes CER from 3.7% to 2.4%, with no change on the SROIE scans.
_SETTINGS = {"Global.max_side_len": 4096, "Global.log_level": "error"}

# The detector scales an image up until its short side is 736 px, whatever the long side: a 5 x 3000 px sliver
# would become 736 x 441,600 px and take tens of gigabytes. Slivers are padded with paper to at most 1:8 first.
MAX_ASPECT = 8

logger = logging.getLogger(__name__)
_engine: Any = None
_engine_lock = threading.Lock()
_run_lock = threading.Lock()


def create_engine(**params: Any) -> Any:
    """A new RapidOCR engine on the packaged models; params override its configuration (bench, tests)."""
    import rapidocr  # imported here: it pulls in OpenCV and ONNX Runtime, which only OCR needs

    models = Path(rapidocr.__file__).parent / "models"
    config = {key: str(models / name) for key, name in _MODEL_FILES.items()} | _SETTINGS | params
    return rapidocr.RapidOCR(params=config)


def ocr_engine() -> Any:
    """This process's engine, created on first use."""
    global _engine
    if _engine is None:
        with _engine_lock:
            if _engine is None:
                _engine = create_engine()
    return _engine


def recognise(image: Image.Image, *, scale: float = 1.0, engine: Any = None) -> list[Box]:
    """The text boxes of an image, with boxes multiplied by scale (working pixels → page pixels).

    The image goes in as it is: colour pre-passes (darkest channel, most contrasted channel, grey) were
    measured by bench/ocr.py and did not help (see its docstring).
    """
    engine = engine or ocr_engine()
    try:
        with _run_lock:
            result = engine(_padded_to_max_aspect(image))
    except Exception as error:  # e.g. RapidOCR cannot resize a 5 x 3000 px sliver
        logger.info("OCR failed on a %s x %s image: %r", image.width, image.height, error)
        raise UnreadableDocument("This image could not be read by OCR.", reason="ocr_failed") from error
    if result.boxes is None or result.txts is None:
        return []
    boxes = []
    for corners, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
        xs, ys = corners[:, 0] * scale, corners[:, 1] * scale
        bbox = (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))
        boxes.append(Box(text=text, bbox=bbox, confidence=float(score)))
    return boxes


def _padded_to_max_aspect(image: Image.Image) -> Image.Image:
    """The image on white paper extended right or down so that its sides are at most 1:MAX_ASPECT; same origin."""
    width, height = image.size
    size = (max(width, math.ceil(height / MAX_ASPECT)), max(height, math.ceil(width / MAX_ASPECT)))
    if size == image.size:
        return image
    paper = Image.new(image.mode, size, "white")
    paper.paste(image, (0, 0))
    return paper
