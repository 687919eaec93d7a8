"""Helpers every form of the app shares."""

from __future__ import annotations

from django import forms


def form_errors_sentence(form: forms.Form) -> str:
    """A form's errors as one line for a message: "Amount: Ensure this value is greater than or equal to 1."."""
    parts = []
    for field, errors in form.errors.items():
        field_obj = form.fields.get(field)
        label = (field_obj.label or field.replace("_", " ").capitalize()) if field_obj else ""
        parts.extend(f"{label}: {error}" if label else error for error in errors)
    return " ".join(parts)
