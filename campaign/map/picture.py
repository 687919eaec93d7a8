"""The tactical map's picture: a real image of at most 10 MB, stored as a clean JPEG of at most 2400 px and
a thumbnail (campaign.web.images checks and cleans it). Also paints the demo's valley (river, forest, hills)
so the demo needs no image file.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from campaign.web.images import CleanImage, ImageRules, image_upload_process

MAP_PICTURE = ImageRules(noun="picture", max_bytes=10 * 1024 * 1024, max_pixels=50_000_000, max_side=2400,
                         thumbnail_side=320, min_side=64, keep_transparency=False, jpeg_quality=86)


def map_picture_process(upload) -> CleanImage:
    """A clean, bounded JPEG copy of an uploaded map picture and its thumbnail (or a sentence saying why not)."""
    return image_upload_process(upload, MAP_PICTURE)


# The demo valley, in inches on a 48 x 36 inch map; the demo's terrain regions use the same polygons.
VALLEY_WIDTH, VALLEY_HEIGHT = 48.0, 36.0
VALLEY_RIVER = ((20.0, 0.0), (23.0, 0.0), (24.5, 10.0), (23.5, 19.0), (25.5, 36.0), (22.0, 36.0),
                (20.5, 19.0), (21.5, 10.0))
VALLEY_FOREST = ((4.0, 16.0), (13.0, 14.0), (16.0, 22.0), (10.0, 28.0), (3.0, 24.0))
VALLEY_HILLS = ((30.0, 3.0), (42.0, 2.0), (45.0, 10.0), (36.0, 13.0), (29.0, 9.0))
VALLEY_MARSH = ((27.0, 26.0), (35.0, 24.0), (37.0, 31.0), (28.0, 33.0))


def valley_picture(*, pixels_per_inch: int = 20) -> bytes:
    """A simple painted valley (PNG): grassland, a river running north to south, a forest, hills and a marsh."""
    scale = pixels_per_inch
    image = Image.new("RGB", (int(VALLEY_WIDTH * scale), int(VALLEY_HEIGHT * scale)), (178, 196, 120))
    draw = ImageDraw.Draw(image)

    def poly(points, fill, outline):
        draw.polygon([(x * scale, y * scale) for x, y in points], fill=fill, outline=outline)

    poly(VALLEY_HILLS, (170, 150, 105), (120, 100, 70))
    for cx, cy in ((33, 6), (38, 5), (41, 8), (35, 10)):
        draw.arc([(cx - 2) * scale, (cy - 1) * scale, (cx + 2) * scale, (cy + 1.5) * scale], 200, 340,
                 fill=(110, 90, 60), width=3)
    poly(VALLEY_FOREST, (70, 120, 60), (40, 80, 40))
    for cx, cy in ((7, 19), (10, 17), (12, 21), (8, 24), (5, 21), (13, 18)):
        draw.ellipse([(cx - 0.9) * scale, (cy - 0.9) * scale, (cx + 0.9) * scale, (cy + 0.9) * scale],
                     fill=(45, 95, 45))
    poly(VALLEY_MARSH, (140, 170, 140), (90, 120, 100))
    poly(VALLEY_RIVER, (80, 130, 190), (50, 90, 150))
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
