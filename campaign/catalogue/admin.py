"""The admin (superusers only) for the unit catalogue, validated as the catalogue file is."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from campaign.catalogue import artwork, services
from campaign.catalogue.entries import catalogue_effects_check
from campaign.models import (
    UnitType,
)


class UnitTypeAdminForm(forms.ModelForm):
    """The model's fields, the effects checked against the battle engine, and an artwork upload that Pillow
    checks in the service (a plain file field: the service says what is wrong with a file)."""

    upload = forms.FileField(required=False, label="New artwork",
                             help_text="A PNG, JPEG, WebP or GIF of at most 5 MB; stored re-encoded, without metadata.")

    class Meta:
        model = UnitType
        fields = ["campaign", "name", "strength", "role", "path", "traits", "text", "effects", "quest", "trains_to",
                  "third_training"]

    def clean_effects(self):
        return catalogue_effects_check(name=self.cleaned_data.get("name") or "This unit type",
                                       effects=self.cleaned_data["effects"])

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        if upload:
            artwork.artwork_process(upload)  # refuse a bad file on the form; the service stores its own clean copy
        return upload

    def clean(self):
        cleaned = super().clean()
        target, campaign = cleaned.get("trains_to"), cleaned.get("campaign", self.instance.campaign)
        if target is not None and target.campaign_id not in (None, campaign.pk if campaign else None):
            self.add_error("trains_to", f"{target} is in another campaign's catalogue: pick one this catalogue sees.")
        return cleaned


@admin.register(UnitType)
class UnitTypeAdmin(admin.ModelAdmin):
    """Adds and changes go through services.unit_type_save (the checks of a catalogue file), artwork through
    services.unit_type_set_artwork. A whole file loads with `manage.py load_catalogue`."""

    form = UnitTypeAdminForm
    list_display = ["name", "campaign", "strength", "role", "path", "quest", "trains_to"]
    list_filter = ["campaign", "role", "path", "quest"]
    search_fields = ["name"]
    readonly_fields = ["artwork", "artwork_thumbnail"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "campaign"] if obj else self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        entry = {f: data.get(f) for f in ["name", "strength", "role", "path", "traits", "text", "effects", "quest",
                                          "third_training"]}
        entry["trains_to"] = data["trains_to"].name if data.get("trains_to") else None
        try:
            saved = services.unit_type_save(campaign=obj.campaign if change else data.get("campaign"), entry=entry,
                                            unit_type=obj if change else None, actor=request.user)
            if data.get("upload"):
                saved = services.unit_type_set_artwork(unit_type=saved, upload=data["upload"], actor=request.user)
        except ValidationError as exc:
            self.message_user(request, " ".join(exc.messages), messages.ERROR)
            return
        obj.pk = saved.pk
