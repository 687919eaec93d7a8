"""Uploaded pictures (unit artwork, map pictures): only real images get in, and what is stored is a clean copy.

Pillow must recognise the file as a PNG, JPEG, WebP or GIF (verify, then a full decode, refusing
decompression bombs before decoding); it is re-encoded from its pixels alone, so EXIF, GPS, comments
and any trailing payload are dropped; it is bounded on its longest side and a thumbnail is made.
Anything else is refused with a sentence that says what to upload instead.
"""

from __future__ import annotations

import io
import uuid
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

FORMATS = frozenset({"PNG", "JPEG", "WEBP", "GIF"})


@dataclass(frozen=True)
class ImageRules:
    """What one kind of upload accepts. `noun` names it in refusals ("image", "picture")."""

    noun: str
    max_bytes: int
    max_pixels: int
    max_side: int
    thumbnail_side: int
    min_side: int = 1
    keep_transparency: bool = True
    jpeg_quality: int = 88


@dataclass(frozen=True)
class CleanImage:
    image: ContentFile
    thumbnail: ContentFile
    name: str
    thumbnail_name: str
    width: int
    height: int


def _megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} MB"


def _read(upload, rules: ImageRules) -> bytes:
    limit = _megabytes(rules.max_bytes)
    size = getattr(upload, "size", None)
    if size is not None and size > rules.max_bytes:
        raise ValidationError(f"That {rules.noun} is {size / 1024 / 1024:.1f} MB: upload one of at most {limit}.")
    if hasattr(upload, "seek"):
        upload.seek(0)
    data = upload.read(rules.max_bytes + 1)
    if len(data) > rules.max_bytes:
        raise ValidationError(f"That {rules.noun} is over {limit}: upload one of at most {limit}.")
    if not data:
        raise ValidationError(f"That file is empty: upload a PNG, JPEG, WebP or GIF {rules.noun}.")
    return data


def _decode(data: bytes, rules: ImageRules) -> Image.Image:
    article = "an" if rules.noun[0] in "aeiou" else "a"
    refusal = f"That file is not {article} {rules.noun} Muster can use: upload a PNG, JPEG, WebP or GIF."
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(io.BytesIO(data))
            if probe.format not in FORMATS:
                raise ValidationError(refusal)
            if probe.width * probe.height > rules.max_pixels:
                raise ValidationError(f"That {rules.noun} is {probe.width} x {probe.height} pixels: upload one of "
                                      f"at most {rules.max_pixels // 1_000_000} megapixels.")
            probe.verify()
            image = Image.open(io.BytesIO(data))
            image.load()
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as exc:
        raise ValidationError(refusal) from exc
    if min(image.size) < rules.min_side:
        raise ValidationError(f"That {rules.noun} is {image.width} x {image.height} pixels: it needs at least "
                              f"{rules.min_side} pixels on each side.")
    return image


def _pixels_only(image: Image.Image, keep_transparency: bool) -> Image.Image:
    """A new image holding only the pixels (orientation applied), in RGB or RGBA."""
    image = ImageOps.exif_transpose(image)
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    mode = "RGBA" if has_alpha and keep_transparency else "RGB"
    converted = image.convert(mode)
    clean = Image.new(mode, converted.size)
    clean.paste(converted)
    return clean


def _encode(image: Image.Image, quality: int) -> tuple[bytes, str]:
    out = io.BytesIO()
    if image.mode == "RGBA":
        image.save(out, format="PNG", optimize=True)
        return out.getvalue(), "png"
    image.save(out, format="JPEG", quality=quality, optimize=True)
    return out.getvalue(), "jpg"


def image_upload_process(upload, rules: ImageRules) -> CleanImage:
    """Check an upload is a real image and return a clean, bounded copy and its thumbnail."""
    image = _pixels_only(_decode(_read(upload, rules), rules), rules.keep_transparency)
    image.thumbnail((rules.max_side, rules.max_side), Image.Resampling.LANCZOS)
    thumb = image.copy()
    thumb.thumbnail((rules.thumbnail_side, rules.thumbnail_side), Image.Resampling.LANCZOS)
    data, ext = _encode(image, rules.jpeg_quality)
    thumb_data, thumb_ext = _encode(thumb, rules.jpeg_quality - 6)
    stem = uuid.uuid4().hex
    return CleanImage(image=ContentFile(data), thumbnail=ContentFile(thumb_data), name=f"{stem}.{ext}",
                      thumbnail_name=f"{stem}-thumb.{thumb_ext}", width=image.width, height=image.height)
