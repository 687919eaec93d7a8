"""Unit artwork uploads: a real image of at most 5 MB and 40 megapixels, stored as a clean copy of at
most 2048 px with a 256 px thumbnail (campaign.web.images does the checking and cleaning).
"""

from __future__ import annotations

from campaign.web.images import CleanImage, ImageRules, image_upload_process

MAX_SIDE = 2048
THUMBNAIL_SIDE = 256
ARTWORK = ImageRules(noun="image", max_bytes=5 * 1024 * 1024, max_pixels=40_000_000, max_side=MAX_SIDE,
                     thumbnail_side=THUMBNAIL_SIDE)


def artwork_process(upload) -> CleanImage:
    """Check an upload is a real image and return a clean, bounded copy and its thumbnail."""
    return image_upload_process(upload, ARTWORK)
