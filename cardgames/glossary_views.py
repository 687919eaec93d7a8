"""The rules glossary page (#17 item 4): every game's words explained from its rules texts, one section per game,
each term at an anchor the tables link to, filtered by ``?q=`` (its script filters the same way as one types).

Signed in, and no campaign needed: the words are the same in every campaign, and a member reaches them from any
table or from the top bar."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cardgames.rules_help import glossary_sections

LONGEST_QUERY = 100
"""A filter is cut to this many characters (a few words are all it needs)."""


@login_required
def glossary_page(request: HttpRequest) -> HttpResponse:
    query = " ".join(request.GET.get("q", "").split())[:LONGEST_QUERY]
    sections = glossary_sections(query=query)
    return render(request, "cardgames/glossary.html", {
        "query": query, "sections": sections,
        "shown": sum(s.count for s in sections),
        "total": sum(len(e.entries) for s in sections for e in s.groups)})
