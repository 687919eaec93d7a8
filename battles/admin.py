"""Battles in the admin: read-only. Battles start, end and reach the campaign only through battles.services."""

from django.contrib import admin

from battles.models import Battle
from campaign.campaigns.admin import ReadOnlyAdmin


@admin.register(Battle)
class BattleAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "campaign", "mode", "status", "day", "created_at", "applied_at"]
    list_filter = ["mode", "status", "campaign"]
    search_fields = ["attacker__name", "defender__name", "notes"]
