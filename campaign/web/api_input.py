"""What the API reads from a request, bounded: pagination that clamps what a client asks for, and a JSON parser
that answers absurd nesting with a 400. (Settings name these classes: nothing here may import DRF's views.)"""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser

from campaign.web.numbers import parse_count

MAX_OFFSET = 10**9
"""No list is that long; a larger offset would overflow the database's OFFSET, so it is clamped."""


class ClampedLimitOffsetPagination(LimitOffsetPagination):
    """`?limit=` at most 500 and `?offset=` at most a billion; anything that is not a count gets the default."""

    max_limit = 500

    def get_limit(self, request) -> int | None:
        return parse_count(request.query_params.get(self.limit_query_param), default=self.default_limit or 0,
                           maximum=self.max_limit) or self.default_limit

    def get_offset(self, request) -> int:
        return parse_count(request.query_params.get(self.offset_query_param), default=0, maximum=MAX_OFFSET)


class BoundedJSONParser(JSONParser):
    """JSON as usual; a document nested too deeply for Python's parser is a 400, not a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("The JSON is nested too deeply: send a flatter document.") from exc
