"""404 and 500 pages in the site's own style; under /api/ the API's JSON error shape (`api_errors`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader

from campaign.web.api_errors import api_not_found, api_server_error


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return api_not_found()
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return api_server_error()
    # No context processors: the database may be what failed.
    return HttpResponse(loader.get_template("500.html").render(), status=500)
