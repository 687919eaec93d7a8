"""Middleware of the app: a role refusal (`NotAllowed`) shown on pages as a 403 with its sentence, and requests
carrying a NUL character refused before any view reads them."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from campaign.campaigns.permissions import NotAllowed


class NotAllowedMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, NotAllowed):
            return render(request, "403.html", {"message": exception.message}, status=403)
        return None


NUL_SENTENCE = "Remove the NUL character (\\x00, %00) from what you sent: no text here may hold one."
_TEXT_BODIES = ("application/json", "application/x-www-form-urlencoded")


def _carries_nul(request: HttpRequest) -> bool:
    """PostgreSQL stores no NUL in text, and a filter or a lookup with one fails: look in the query string and in
    text bodies (JSON, forms; multipart uploads carry binary files and are checked field by field by forms)."""
    query = request.META.get("QUERY_STRING", "")
    if "%00" in query or "\x00" in query:
        return True
    if request.content_type not in _TEXT_BODIES:
        return False
    body = request.body
    if request.content_type == "application/json":
        return b"\x00" in body or b"\\u0000" in body
    return b"\x00" in body or b"%00" in body


class NulRefusalMiddleware:
    """A request with a NUL character in its query or text body is a 400 with a sentence, never a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _carries_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": NUL_SENTENCE}, status=400)
            return HttpResponse(NUL_SENTENCE, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
