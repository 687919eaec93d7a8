"""Matches and challenges in the admin: read-mostly (the log is immutable; play happens on the play pages, and
challenges are answered there)."""

from django.contrib import admin

from campaign.campaigns.admin import ReadOnlyAdmin
from cardgames.models import Challenge, Match, MatchAction, MatchSeat


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    readonly_fields = ["seat", "name", "user", "ai", "commander", "stake", "escrow"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "game", "status", "version", "created_at"]
    list_filter = ["game", "status", "campaign"]
    readonly_fields = ["game", "config", "seed", "state", "chance", "status", "result", "version", "bank_stake",
                       "created_by", "finished_at"]
    inlines = [MatchSeatInline]


@admin.register(MatchAction)
class MatchActionAdmin(ReadOnlyAdmin):
    list_display = ["match", "index", "seat", "action", "at"]
    list_filter = ["match__game"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "campaign", "stake", "status", "created_at"]
    list_filter = ["game", "status", "campaign"]
