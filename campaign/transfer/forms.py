"""The forms of the transfer pages: an export to import, a new season's name and address."""

from __future__ import annotations

from django import forms


class ImportForm(forms.Form):
    export = forms.FileField(label="Export (zip)", help_text="The zip a campaign's “Download export” gave.")


class NewSeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=140, required=False, label="Address (empty: made from the name)")
    carry_purses = forms.BooleanField(required=False, initial=True, label="Carry each purse's lunari over")
