"""Unit artwork uploads: only real images get in, and what is stored is a clean copy.

Pillow must recognise the file as an image (verify, then a full decode), it is re-encoded from its
pixels alone (so EXIF, GPS, comments and any trailing payload are dropped), bounded to 2048 px on its
longest side, and a 256 px thumbnail is made. Anything else is refused with a sentence.
"""

from __future__ import annotations

import io
import uuid
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_SIDE = 2048
THUMBNAIL_SIDE = 256
MAX_INPUT_PIXELS = 40_000_000  # refuse decompression bombs before decoding
ALLOWED_FORMATS = frozenset({"PNG", "JPEG", "WEBP", "GIF"})


@dataclass(frozen=True)
class ProcessedArtwork:
    image: ContentFile
    thumbnail: ContentFile
    name: str
    thumbnail_name: str
    width: int
    height: int


def _read(upload) -> bytes:
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise ValidationError(f"That image is {size / 1024 / 1024:.1f} MB: upload one of at most 5 MB.")
    if hasattr(upload, "seek"):
        upload.seek(0)
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValidationError("That image is over 5 MB: upload one of at most 5 MB.")
    if not data:
        raise ValidationError("That file is empty: upload a PNG, JPEG, WebP or GIF image.")
    return data


def _open_checked(data: bytes) -> Image.Image:
    not_image = "That file is not an image Muster can use: upload a PNG, JPEG, WebP or GIF."
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(io.BytesIO(data))
            if probe.format not in ALLOWED_FORMATS:
                raise ValidationError(not_image)
            if probe.width * probe.height > MAX_INPUT_PIXELS:
                raise ValidationError(f"That image is {probe.width} x {probe.height} pixels: "
                                      "upload one of at most 40 megapixels.")
            probe.verify()
            image = Image.open(io.BytesIO(data))
            image.load()
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as exc:
        raise ValidationError(not_image) from exc
    return image


def _clean(image: Image.Image) -> Image.Image:
    """A new image holding only the pixels (orientation applied), in RGB or RGBA."""
    image = ImageOps.exif_transpose(image)
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    mode = "RGBA" if has_alpha else "RGB"
    converted = image.convert(mode)
    clean = Image.new(mode, converted.size)
    clean.paste(converted)
    return clean


def _encode(image: Image.Image) -> tuple[bytes, str]:
    out = io.BytesIO()
    if image.mode == "RGBA":
        image.save(out, format="PNG", optimize=True)
        return out.getvalue(), "png"
    image.save(out, format="JPEG", quality=88, optimize=True)
    return out.getvalue(), "jpg"


def artwork_process(upload) -> ProcessedArtwork:
    """Check an upload is a real image and return a clean, bounded copy and its thumbnail."""
    image = _clean(_open_checked(_read(upload)))
    image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    thumb = image.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), Image.Resampling.LANCZOS)
    data, ext = _encode(image)
    thumb_data, thumb_ext = _encode(thumb)
    stem = uuid.uuid4().hex
    return ProcessedArtwork(image=ContentFile(data), thumbnail=ContentFile(thumb_data), name=f"{stem}.{ext}",
                            thumbnail_name=f"{stem}-thumb.{thumb_ext}", width=image.width, height=image.height)
