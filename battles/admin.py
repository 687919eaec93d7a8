"""Battles in the admin: read-only. Battles start, end and reach the campaign only through battles.services."""

from django.contrib import admin

from battles.models import Battle


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "mode", "status", "day", "created_at", "applied_at"]
    list_filter = ["mode", "status", "campaign"]
    search_fields = ["attacker__name", "defender__name", "notes"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
