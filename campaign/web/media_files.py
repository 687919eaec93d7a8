"""Campaign pictures (unit artwork, map pictures) are not public files: views hand them to members only."""

from __future__ import annotations

import mimetypes

from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404


def private_file_response(file: FieldFile | None, *, missing: str) -> FileResponse:
    """The stored file, cached privately (a new upload gets a new name, so a new URL), or a 404 saying `missing`."""
    if not file or not file.storage.exists(file.name):
        raise Http404(missing)
    content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    response = FileResponse(file.open("rb"), content_type=content_type)
    response["Cache-Control"] = "private, max-age=86400"
    return response
