"""The house rules page: a form built from the settings the code registered (campaign.campaigns.house_rules),
each with its default and the ruling it changes; a game master saves it through campaign_update, which checks
every value. Players read it."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.campaigns import services
from campaign.campaigns.house_rules import HouseRule, house_rule_value, house_rules_known, house_rules_with
from campaign.campaigns.permissions import Action, NotAllowed, can
from campaign.campaigns.views import campaign_membership
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_message, refusal_shown


def _json_value(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(f"That is not JSON ({exc.msg} at character {exc.pos + 1}): write it as the "
                                    "example shows, or leave it empty for the default.") from None


def _field(rule: HouseRule, value: Any) -> forms.Field:
    default = {"bool": "no", "int": str(rule.default), "json": "none"}[rule.kind]
    help_text = f"{rule.ruling} Default: {'yes' if rule.default else default}."
    if rule.kind == "bool":
        return forms.BooleanField(label=rule.label, required=False, initial=value, help_text=help_text)
    if rule.kind == "int":
        return forms.IntegerField(label=rule.label, min_value=rule.minimum, max_value=rule.maximum, initial=value,
                                  help_text=help_text)
    return forms.CharField(label=rule.label, required=False, help_text=help_text,
                           initial=json.dumps(value, indent=1) if value is not None else "",
                           widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))


class HouseRulesForm(forms.Form):
    """One field per registered setting, preset to the campaign's value (its default when unset)."""

    def __init__(self, *args, rules: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.known = {rule.key.replace(".", "__"): rule for rule in house_rules_known()}
        for name, rule in self.known.items():
            self.fields[name] = _field(rule, house_rule_value(rules, rule))

    def clean(self):
        data = super().clean()
        for name, rule in self.known.items():
            if rule.kind == "json" and name in data:
                try:
                    data[name] = _json_value(data[name])
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        return data

    def values(self) -> dict[str, Any]:
        return {rule.key: self.cleaned_data.get(name) for name, rule in self.known.items()}


@login_required
@require_http_methods(["GET", "POST"])
def house_rules(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    may_edit = can(membership, Action.EDIT_CAMPAIGN)
    form = HouseRulesForm(request.POST or None, rules=campaign.house_rules)
    if request.method == "POST":
        if not may_edit:
            refusal_message(request, NotAllowed("Only a game master may change the house rules."))
            return redirect("house-rules", slug)
        if form.is_valid():
            with refusal_shown(request, ValidationError):
                services.campaign_update(campaign=campaign, actor=request.user,
                                         house_rules=house_rules_with(campaign.house_rules, form.values()))
                messages.success(request, "The house rules are saved: they apply from the next Battle or match.")
                return redirect("house-rules", slug)
        else:
            messages.error(request, form_errors_sentence(form))
    return render(request, "campaign/house_rules.html", {"campaign": campaign, "form": form, "may_edit": may_edit})
