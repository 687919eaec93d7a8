"""Unit artwork: only real images, re-encoded without metadata, bounded, with a thumbnail."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from campaign.catalogue import services as catalogue_services
from campaign.catalogue.artwork import MAX_SIDE, THUMBNAIL_SIDE, artwork_process
from tests.campaign.factories import UnitTypeFactory


def image_bytes(size=(64, 48), fmt="JPEG", mode="RGB", exif=True) -> bytes:
    image = Image.new(mode, size, (200, 30, 30) if mode == "RGB" else (200, 30, 30, 128))
    out = io.BytesIO()
    kwargs = {}
    if exif and fmt == "JPEG":
        data = Image.Exif()
        data[0x010F] = "Spy Camera Co"  # Make
        data[0x0131] = "secret-software"  # Software
        kwargs["exif"] = data.tobytes()
    image.save(out, format=fmt, **kwargs)
    return out.getvalue()


def upload(data: bytes, name="art.jpg", content_type="image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def test_a_jpeg_loses_its_metadata_and_gets_a_thumbnail():
    original = image_bytes(size=(600, 400))
    assert Image.open(io.BytesIO(original)).getexif()  # the test image really carries EXIF
    result = artwork_process(upload(original))
    clean = Image.open(io.BytesIO(result.image.read()))
    assert clean.format == "JPEG"
    assert clean.size == (600, 400)
    assert not clean.getexif()
    assert b"Spy Camera Co" not in result.image.open().read()
    thumb = Image.open(io.BytesIO(result.thumbnail.read()))
    assert max(thumb.size) == THUMBNAIL_SIDE
    assert result.name.endswith(".jpg")
    assert result.thumbnail_name.endswith("-thumb.jpg")


def test_a_large_image_is_bounded():
    result = artwork_process(upload(image_bytes(size=(5000, 1000), fmt="PNG", exif=False), name="big.png"))
    assert (result.width, result.height) == (MAX_SIDE, 410)


def test_transparency_is_kept_as_png():
    result = artwork_process(upload(image_bytes(fmt="PNG", mode="RGBA", exif=False), name="a.png"))
    assert Image.open(io.BytesIO(result.image.read())).mode == "RGBA"


@pytest.mark.parametrize("data", [
    b"MZ\x90\x00 this is a program, not a picture",
    b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    b"%PDF-1.4 a document",
])
def test_a_fake_image_is_refused(data):
    with pytest.raises(ValidationError, match="not an image Muster can use"):
        artwork_process(upload(data, name="evil.jpg"))


def test_a_truncated_image_is_refused():
    data = image_bytes(size=(300, 300))
    with pytest.raises(ValidationError, match="not an image"):
        artwork_process(upload(data[: len(data) // 2]))


def test_other_image_formats_are_refused():
    out = io.BytesIO()
    Image.new("RGB", (10, 10)).save(out, format="BMP")
    with pytest.raises(ValidationError, match="PNG, JPEG, WebP or GIF"):
        artwork_process(upload(out.getvalue(), name="x.bmp"))


def test_too_large_a_file_or_an_empty_one_is_refused():
    big = SimpleUploadedFile("huge.jpg", b"\xff" * (5 * 1024 * 1024 + 1))
    with pytest.raises(ValidationError, match="at most 5 MB"):
        artwork_process(big)
    with pytest.raises(ValidationError, match="empty"):
        artwork_process(upload(b""))


@pytest.mark.django_db
def test_the_service_stores_the_clean_copy(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    unit_type = UnitTypeFactory(name="Spearmen")
    catalogue_services.unit_type_set_artwork(unit_type=unit_type, upload=upload(image_bytes(size=(800, 800))),
                                             actor=None)
    unit_type.refresh_from_db()
    assert unit_type.artwork.name.startswith("units/default/")
    assert unit_type.artwork.width == 800
    assert unit_type.artwork_thumbnail.width == THUMBNAIL_SIDE
    assert (tmp_path / unit_type.artwork.name).exists()
