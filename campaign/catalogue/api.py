"""The unit catalogue in the API: the types a campaign sees, for its members (``?campaign=<id>``); game masters add
and change types through services.unit_type_save (the checks of the page, the admin and a catalogue file) and upload
artwork. Changing a default type saves that campaign's own version of it; other campaigns keep the default.
A role refusal is a 403 with the sentence; bad input a 400 with field errors; a type no campaign of mine sees a 404.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q, QuerySet
from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, membership_for, require
from campaign.catalogue import selectors, services
from campaign.catalogue.entries import catalogue_effects_check, catalogue_entry_of
from campaign.catalogue.views import unit_type_picture_response
from campaign.models import Campaign, UnitPath, UnitRole, UnitType
from campaign.web.numbers import parse_id

ROLE_HELP = f"One of {', '.join(UnitRole.values)}, or empty."
PATH_HELP = f"One of {', '.join(UnitPath.values)}, or empty."


class UnitTypeSerializer(serializers.ModelSerializer):
    role = serializers.CharField(read_only=True, help_text=ROLE_HELP)  # not an enum: "role" names memberships' too
    path = serializers.CharField(read_only=True, help_text=PATH_HELP)
    trains_to = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    strength_display = serializers.CharField(read_only=True, help_text='The Strength as printed: "-" for none.')
    artwork_url = serializers.SerializerMethodField()
    thumbnail_url = serializers.SerializerMethodField()

    class Meta:
        model = UnitType
        fields = ["id", "campaign", "name", "strength", "strength_display", "role", "path", "traits", "text",
                  "effects", "quest", "trains_to", "third_training", "third_training_traits", "third_training_effects",
                  "artwork_url", "thumbnail_url"]
        read_only_fields = fields

    def _image_url(self, unit_type: UnitType, image, size: str) -> str | None:
        if not image:
            return None
        url = f"{reverse('unit-type-image', args=[unit_type.pk])}?size={size}&v={image.name.rsplit('/', 1)[-1]}"
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url

    def get_artwork_url(self, unit_type: UnitType) -> str | None:
        return self._image_url(unit_type, unit_type.artwork, "full")

    def get_thumbnail_url(self, unit_type: UnitType) -> str | None:
        return self._image_url(unit_type, unit_type.artwork_thumbnail, "thumbnail")


class UnitTypeWriteSerializer(serializers.Serializer):
    campaign = serializers.PrimaryKeyRelatedField(
        queryset=Campaign.objects.none(), required=False,
        help_text="The campaign whose catalogue this is; needed for a new type and to change a default type.")
    name = serializers.CharField(max_length=120)
    strength = serializers.IntegerField(min_value=0, allow_null=True, required=False, default=None,
                                        help_text='null for Strength "-".')
    role = serializers.CharField(allow_blank=True, required=False, default="", help_text=ROLE_HELP)
    path = serializers.CharField(allow_blank=True, required=False, default="", help_text=PATH_HELP)
    traits = serializers.ListField(child=serializers.CharField(max_length=40), required=False, default=list)
    text = serializers.CharField(allow_blank=True, required=False, default="")
    effects = serializers.JSONField(required=False, default=list,
                                    help_text="A list of effects in the battle engine's vocabulary "
                                              "(battles/engine/effects.py).")
    quest = serializers.BooleanField(required=False, default=False)
    trains_to = serializers.CharField(allow_null=True, allow_blank=True, required=False, default=None,
                                      help_text="The name of a unit type the campaign sees, or null.")
    third_training = serializers.CharField(allow_blank=True, required=False, default="")
    third_training_traits = serializers.ListField(child=serializers.CharField(max_length=40), required=False,
                                                  default=list, help_text="Traits the third training gives.")
    third_training_effects = serializers.JSONField(required=False, default=list,
                                                   help_text="Effects the third training gives, in the battle "
                                                             "engine's vocabulary.")

    def validate_role(self, role: str) -> str:
        if role and role not in UnitRole.values:
            raise serializers.ValidationError(f"{role!r} is not a Role: {ROLE_HELP}")
        return role

    def validate_path(self, path: str) -> str:
        if path and path not in UnitPath.values:
            raise serializers.ValidationError(f"{path!r} is not a Path: {PATH_HELP}")
        return path

    def validate_effects(self, effects):
        name = self.initial_data.get("name") or getattr(self.instance, "name", "") or "This unit type"
        try:
            return catalogue_effects_check(name=str(name), effects=effects)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc


class ArtworkUploadSerializer(serializers.Serializer):
    artwork = serializers.FileField(help_text="A PNG, JPEG, WebP or GIF of at most 5 MB.")
    campaign = serializers.PrimaryKeyRelatedField(
        queryset=Campaign.objects.none(), required=False,
        help_text="For a default type: the campaign whose own version gets the artwork.")


def _campaign_for_write(user, unit_type: UnitType | None, campaign: Campaign | None) -> Campaign:
    """The campaign a write is for, once its game master is known to be asking."""
    if unit_type is not None and unit_type.campaign_id is not None:
        if campaign is not None and campaign.pk != unit_type.campaign_id:
            raise ValidationError({"campaign": [f"{unit_type} belongs to another campaign's catalogue: "
                                                "leave campaign out or name that one."]})
        campaign = unit_type.campaign
    if campaign is None:
        raise ValidationError({"campaign": ["Say which campaign's catalogue to change: a default type is shared by "
                                            "every campaign."]})
    require(membership_for(user=user, campaign=campaign), Action.EDIT_CAMPAIGN)
    return campaign


class UnitTypeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin,
                      viewsets.GenericViewSet):
    """Unit types: with ``?campaign=<id>`` exactly what that campaign sees (its own types and the defaults it has
    not replaced); without it, the defaults and the own types of every campaign of mine."""

    serializer_class = UnitTypeSerializer

    def get_queryset(self) -> QuerySet[UnitType]:
        if getattr(self, "swagger_fake_view", False):
            return UnitType.objects.none()
        value = parse_id(self.request.query_params.get("campaign"))
        if value is not None:
            membership = membership_for(user=self.request.user, campaign=value)
            if membership is None:
                return UnitType.objects.none()
            return selectors.unit_types_for_campaign(campaign=membership.campaign)
        mine = campaigns_selectors.campaigns_visible_to(user=self.request.user)
        return (UnitType.objects.filter(Q(campaign__isnull=True) | Q(campaign__in=mine)).select_related("trains_to")
                .order_by("name", "campaign_id"))

    def _write_body(self, request, serializer_class, **kwargs):
        body = serializer_class(data=request.data, context={"request": request}, **kwargs)
        body.fields["campaign"].queryset = campaigns_selectors.campaigns_visible_to(user=request.user)
        body.is_valid(raise_exception=True)
        return body.validated_data

    def _saved(self, saved: UnitType, code: int = status.HTTP_200_OK) -> Response:
        return Response(UnitTypeSerializer(saved, context={"request": self.request}).data, status=code)

    @extend_schema(request=UnitTypeWriteSerializer, responses={201: UnitTypeSerializer})
    def create(self, request):
        """A game master adds a type to their campaign's catalogue (a default's name makes its own version)."""
        data = self._write_body(request, UnitTypeWriteSerializer)
        campaign = _campaign_for_write(request.user, None, data.pop("campaign", None))
        saved = services.unit_type_save(campaign=campaign, entry=data, actor=request.user)
        return self._saved(saved, status.HTTP_201_CREATED)

    def _update(self, request, *, partial: bool) -> Response:
        unit_type = self.get_object()
        data = self._write_body(request, UnitTypeWriteSerializer, partial=partial)
        campaign = _campaign_for_write(request.user, unit_type, data.pop("campaign", None))
        entry = {**catalogue_entry_of(unit_type), **data}
        return self._saved(services.unit_type_save(campaign=campaign, entry=entry, unit_type=unit_type,
                                                   actor=request.user))

    @extend_schema(request=UnitTypeWriteSerializer, responses={200: UnitTypeSerializer})
    def update(self, request, pk=None):
        """A game master changes a type; for a default type, name the campaign whose own version to save."""
        return self._update(request, partial=False)

    @extend_schema(request=UnitTypeWriteSerializer, responses={200: UnitTypeSerializer})
    def partial_update(self, request, pk=None):
        return self._update(request, partial=True)

    def perform_destroy(self, unit_type: UnitType) -> None:
        """A game master deletes one of their campaign's own types that nothing names (204)."""
        campaign = _campaign_for_write(self.request.user, unit_type, None)
        services.unit_type_delete(campaign=campaign, unit_type=unit_type, actor=self.request.user)

    @extend_schema(request={"multipart/form-data": ArtworkUploadSerializer}, responses={200: UnitTypeSerializer})
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def artwork(self, request, pk=None):
        """Upload artwork (Pillow checks it is a real image; it is stored re-encoded, without metadata)."""
        unit_type = self.get_object()
        data = self._write_body(request, ArtworkUploadSerializer)
        campaign = _campaign_for_write(request.user, unit_type, data.get("campaign"))
        return self._saved(services.unit_type_set_campaign_artwork(campaign=campaign, unit_type=unit_type,
                                                                   upload=data["artwork"], actor=request.user))

    @extend_schema(parameters=[OpenApiParameter("size", str, enum=["full", "thumbnail"])],
                   responses={(200, "image/*"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"])
    def image(self, request, pk=None) -> FileResponse:
        """The artwork, or its 256 px thumbnail with ``?size=thumbnail``."""
        return unit_type_picture_response(self.get_object(), request.query_params.get("size", "full"))
