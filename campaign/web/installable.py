"""The installable web app: the service worker at the root (its scope is where it is served from) and the
manifest; and the `Muster-User` header that tells the worker whose page it is keeping for offline reading."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME = "#7a2e1f"
PAPER = "#fdf8ee"


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> FileResponse:
    """static/js/sw.js from /sw.js: always revalidated, so a new version reaches phones on their next visit."""
    response = FileResponse(open(finders.find("js/sw.js"), "rb"), content_type="text/javascript")  # noqa: SIM115
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [{"src": static(f"icons/muster-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any maskable"} for size in (192, 512)]
    icons.append({"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"})
    return JsonResponse({"name": "Muster", "short_name": "Muster", "id": "/", "start_url": "/", "scope": "/",
                         "display": "standalone", "background_color": PAPER, "theme_color": THEME,
                         "description": "Campaigns, armies and battles at live events.", "icons": icons},
                        content_type="application/manifest+json")


class PageOwnerMiddleware:
    """Marks a signed-in user's pages with their id (and keeps shared caches off them): the service worker keeps
    only pages so marked, in that user's own cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (request.method != "GET" or response.status_code != 200
                or not response.get("Content-Type", "").startswith("text/html")):
            return response  # a poll's 204 or JSON never reads the session: that is what keeps polls cheap
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            mark_owner(response, user.pk)
        return response


def mark_owner(response: HttpResponse, user_id: int) -> HttpResponse:
    """Marks `response` as user `user_id`'s own (the service worker keeps it in that user's cache only) and
    keeps shared caches off it. Pages are marked by PageOwnerMiddleware; the data a page draws itself from
    (the tactical map's) is marked by its view, which has already read the session."""
    response["Muster-User"] = str(user_id)
    patch_cache_control(response, private=True)
    return response
