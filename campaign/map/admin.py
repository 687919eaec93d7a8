"""The admin for the tactical map (GMs' bulk edits of terrain, locations and Bases). Registered from admin.py.
Each save or delete is written to the audit trail, as the services do.
"""

from __future__ import annotations

from django.contrib import admin

from campaign.campaigns import audit
from campaign.models import Base, DueBattle, HourLog, Location, MoveOrder, Reveal, TacticalMap, TerrainRegion


class _Audited:
    def _campaign(self, obj):
        return obj.campaign if isinstance(obj, TacticalMap) else obj.map.campaign

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        audit.audit_record(campaign=self._campaign(obj), actor=request.user,
                           action=f"admin.{obj._meta.model_name}.save", target=obj,
                           data={"fields": sorted(form.changed_data)})

    def delete_model(self, request, obj):
        audit.audit_record(campaign=self._campaign(obj), actor=request.user,
                           action=f"admin.{obj._meta.model_name}.delete", target=obj)
        super().delete_model(request, obj)


class TerrainRegionInline(admin.TabularInline):
    model = TerrainRegion
    extra = 0


class LocationInline(admin.TabularInline):
    model = Location
    extra = 0
    fields = ["name", "size", "x", "y", "capture_threshold", "holder", "capture_progress"]


class BaseInline(admin.TabularInline):
    model = Base
    extra = 0


@admin.register(TacticalMap)
class TacticalMapAdmin(_Audited, admin.ModelAdmin):
    list_display = ["name", "campaign", "width_inches", "height_inches"]
    readonly_fields = ["picture_width", "picture_height"]
    inlines = [TerrainRegionInline, LocationInline, BaseInline]


@admin.register(TerrainRegion)
class TerrainRegionAdmin(_Audited, admin.ModelAdmin):
    list_display = ["name", "kind", "penalty", "map"]
    list_filter = ["kind"]


@admin.register(Location)
class LocationAdmin(_Audited, admin.ModelAdmin):
    list_display = ["name", "size", "holder", "capture_progress", "capture_threshold", "map"]


@admin.register(MoveOrder)
class MoveOrderAdmin(admin.ModelAdmin):
    list_display = ["army", "kind", "status", "ordered_hour", "arrival_hour", "done_hour"]
    list_filter = ["status", "kind"]
    readonly_fields = [f.name for f in MoveOrder._meta.fields]


@admin.register(DueBattle)
class DueBattleAdmin(admin.ModelAdmin):
    list_display = ["event", "hour", "first", "second", "location", "status", "winner"]
    list_filter = ["status"]
    readonly_fields = [f.name for f in DueBattle._meta.fields]


@admin.register(HourLog)
class HourLogAdmin(admin.ModelAdmin):
    list_display = ["event", "hour", "moved", "processed_at"]
    readonly_fields = [f.name for f in HourLog._meta.fields]


@admin.register(Reveal)
class RevealAdmin(admin.ModelAdmin):
    list_display = ["army", "to_commander", "what", "hour", "created_at"]
    readonly_fields = [f.name for f in Reveal._meta.fields]
