"""Receipt photos and scans decoded safely: formats restricted, pixel bombs refused, EXIF orientation applied."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageOps

from .errors import UnreadableDocument

MAX_IMAGE_PIXELS = 50_000_000  # refused beyond this, from the header, before any pixel is decoded
MAX_WORKING_PIXELS = 4_000_000  # larger images are downscaled before OCR: an A4 page at 200 dpi still fits


@dataclass(frozen=True)
class DecodedImage:
    """An upright RGB image to read, and the size of the upright original its boxes are reported in."""

    image: Image.Image
    page_size: tuple[int, int]

    @property
    def scale(self) -> float:
        """Original pixels per working pixel."""
        return self.page_size[0] / self.image.width


def decode_image(data: bytes, pillow_format: str, *, max_pixels: int = MAX_WORKING_PIXELS) -> DecodedImage:
    """The image upright in RGB, downscaled to at most max_pixels, or UnreadableDocument."""
    try:
        image = Image.open(io.BytesIO(data), formats=[pillow_format])
        _refuse_bombs(image.width, image.height)
        original_width = image.width
        if pillow_format == "JPEG":
            image.draft("RGB", _fit(image.size, max_pixels))  # decode at 1/2, 1/4, 1/8 scale: less memory
        image.load()
        scale = original_width / image.width
        image = _flatten(ImageOps.exif_transpose(image))
    except (UnreadableDocument, MemoryError):  # out of memory: the reader process reports it as such
        raise
    except Image.DecompressionBombError:
        raise _too_many_pixels() from None
    except Exception as error:  # Pillow reports broken files with many exception types (OSError, SyntaxError…)
        raise UnreadableDocument(
            "This image could not be read; it may be damaged or only partly uploaded.", reason="broken"
        ) from error
    page_size = (round(image.width * scale), round(image.height * scale))
    if image.width * image.height > max_pixels:
        image = image.resize(_fit(image.size, max_pixels), Image.Resampling.LANCZOS)
    return DecodedImage(image=image, page_size=page_size)


def _refuse_bombs(width: int, height: int) -> None:
    if width <= 0 or height <= 0 or width * height > MAX_IMAGE_PIXELS:
        raise _too_many_pixels()


def _too_many_pixels() -> UnreadableDocument:
    return UnreadableDocument(
        f"This image is too large to read (more than {MAX_IMAGE_PIXELS // 1_000_000} million pixels).",
        reason="too_many_pixels",
    )


def _fit(size: tuple[int, int], max_pixels: int) -> tuple[int, int]:
    width, height = size
    if width * height <= max_pixels:
        return size
    ratio = (max_pixels / (width * height)) ** 0.5
    return max(1, int(width * ratio)), max(1, int(height * ratio))


def _flatten(image: Image.Image) -> Image.Image:
    """RGB, with transparency composed over white paper (dark text on a transparent PNG stays readable)."""
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        image = image.convert("RGBA")
        paper = Image.new("RGB", image.size, "white")
        paper.paste(image, mask=image.getchannel("A"))
        return paper
    return image.convert("RGB")
