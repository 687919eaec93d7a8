"""The campaign's map picture for its members (media are not public files)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest

from campaign import map_selectors
from campaign.media_files import private_file_response
from campaign.views import campaign_membership


@login_required
def map_picture(request: HttpRequest, slug: str, size: str = "full") -> FileResponse:
    """The map picture (size "thumbnail": its thumbnail): every member sees the terrain (fog hides armies only)."""
    campaign, _ = campaign_membership(request, slug)
    tactical_map = map_selectors.tactical_map_for(campaign=campaign)
    if tactical_map is None:
        raise Http404("This campaign has no map yet.")
    picture = tactical_map.thumbnail if size == "thumbnail" else tactical_map.picture
    return private_file_response(picture, missing="This map has no picture yet.")
