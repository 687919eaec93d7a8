"""`/healthz` for container health checks: answers before host checks and HTTPS redirects,
so a probe from inside the container (Host: 127.0.0.1, plain HTTP) gets a true answer."""

from django.db import connection
from django.http import HttpResponse


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != "/healthz":
            return self.get_response(request)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception as exc:
            return HttpResponse(f"database unavailable: {exc.__class__.__name__}", status=503,
                                content_type="text/plain")
        return HttpResponse("ok", content_type="text/plain")
