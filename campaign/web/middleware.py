"""Shows a role refusal (`NotAllowed`) on pages as a 403 with its sentence."""

from __future__ import annotations

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
