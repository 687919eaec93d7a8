"""The map API: the fog-of-war view of a map, terrain, locations, armies (form, split, merge, disband), move
orders (with a preview), reveals, the event clock and Battles due. Thin: parse, check the role, call a service.
Fog of war is applied by campaign.map.selectors, so a player's response never holds an army they may not see, not even
its id.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from campaign.campaigns.permissions import Action, may_act_for, membership_for, require
from campaign.map import armies, map_at_hour, map_print, orders, selectors, services
from campaign.models import (
    Army,
    Base,
    Commander,
    Location,
    Membership,
    MoveOrder,
    Reveal,
    Role,
    TacticalMap,
    TerrainRegion,
)
from campaign.web.numbers import parse_id


def service_checked(call, *args, **kwargs):
    """Run a service; its sentence becomes a 400."""
    try:
        return call(*args, **kwargs)
    except DjangoValidationError as exc:
        raise ValidationError({"detail": " ".join(exc.messages)}) from exc


def building_schema(view) -> bool:
    """True while drf-spectacular builds the schema (there is no user to scope the queryset by)."""
    return getattr(view, "swagger_fake_view", False)


def member_or_404(request, campaign_id: int):
    membership = membership_for(user=request.user, campaign=campaign_id)
    if membership is None:
        raise NotFound("No such campaign.")
    return membership


class RegionSerializer(serializers.ModelSerializer):
    class Meta:
        model = TerrainRegion
        fields = ["id", "map", "name", "kind", "penalty", "points"]


class LocationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Location
        fields = ["id", "map", "name", "size", "x", "y", "capture_threshold", "holder", "capture_progress"]
        read_only_fields = ["capture_progress"]
        extra_kwargs = {"capture_threshold": {"required": False}}
        validators: list = []


def _map_state(view: selectors.MapView) -> dict:
    tactical_map = view.tactical_map
    slug = tactical_map.campaign.slug
    return {
        "id": tactical_map.pk, "campaign": tactical_map.campaign_id, "name": tactical_map.name,
        "width_inches": tactical_map.width_inches, "height_inches": tactical_map.height_inches,
        "picture": reverse("map-picture", args=[slug]) if tactical_map.picture else None,
        "thumbnail": reverse("map-picture-thumbnail", args=[slug]) if tactical_map.thumbnail else None,
        "event": view.event.pk if view.event else None, "hour": view.hour,
        "regions": RegionSerializer(view.regions, many=True).data,
        "locations": LocationSerializer(view.locations, many=True).data,
        "bases": [{"id": b.pk, "name": b.name, "x": b.x, "y": b.y, "morale_bonus": b.morale_bonus,
                   "location": b.location_id, "spent_today": b.spent_on_id is not None} for b in view.bases],
        "armies": [{"id": a.id, "name": a.name, "commander": a.commander_id, "x": a.x, "y": a.y,
                    "miniatures": a.miniatures, "own": a.own, "as_of_hour": a.as_of_hour, "order": a.order_id,
                    "route": a.path, "arrival_hour": a.arrival_hour} for a in view.armies],
        "due_battles": [{"id": b["id"], "hour": b["hour"], "armies": [pk for pk, _ in b["sides"]],
                         "location": b["location"].pk if b["location"] else None} for b in view.due_battles],
    }


class TacticalMapSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = TacticalMap
        fields = ["id", "campaign", "name"]


class TacticalMapViewSet(viewsets.ReadOnlyModelViewSet):
    """Maps of my campaigns; one map is everything I may see on it (fog of war applied)."""

    serializer_class = TacticalMapSummarySerializer
    pagination_class = None

    def get_queryset(self):
        if building_schema(self):
            return TacticalMap.objects.none()
        return TacticalMap.objects.filter(campaign__memberships__user=self.request.user).order_by("pk")

    @extend_schema(responses={200: dict})
    def retrieve(self, request, pk=None):
        tactical_map = get_object_or_404(self.get_queryset(), pk=pk)
        membership = member_or_404(request, tactical_map.campaign_id)
        view = selectors.map_view(tactical_map=tactical_map, membership=membership)
        return Response(_map_state(view))

    @extend_schema(
        parameters=[OpenApiParameter("hour", int, description="The Event's hour to draw (default: the current hour; "
                                     f"at most {map_at_hour.MAX_HOURS_AHEAD} ahead)."),
                    OpenApiParameter("file", str, enum=["png", "pdf"], description="png (default) or pdf (A4).")],
        responses={(200, "image/png"): OpenApiTypes.BINARY, (200, "application/pdf"): OpenApiTypes.BINARY,
                   400: OpenApiResponse(description="The hour cannot be drawn: `detail` says why.")})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """The map at an hour, printed for me (what I may see then), as a PNG or an A4 PDF: as the map page's
        print form gives it (campaign.map.map_print)."""
        tactical_map = get_object_or_404(self.get_queryset(), pk=pk)
        membership = member_or_404(request, tactical_map.campaign_id)
        kind = request.query_params.get("file", "png")
        if kind not in ("png", "pdf"):
            raise ValidationError({"detail": "Ask for file=png or file=pdf."})
        hour = service_checked(map_at_hour.hour_parse, request.query_params.get("hour"))
        body, content_type, name = service_checked(map_print.map_export, tactical_map=tactical_map,
                                                   membership=membership, hour=hour, pdf=kind == "pdf")
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class _MapPartViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, mixins.DestroyModelMixin,
                      viewsets.GenericViewSet):
    """Parts of my campaigns' maps (``?map=<id>``); GMs add and remove them."""

    def get_queryset(self):
        if building_schema(self):
            return self.serializer_class.Meta.model.objects.none()
        qs = self.serializer_class.Meta.model.objects.filter(map__campaign__memberships__user=self.request.user)
        if (map_id := parse_id(self.request.query_params.get("map"))) is not None:
            qs = qs.filter(map_id=map_id)
        return qs.order_by("pk")

    def _gm_map(self, serializer) -> TacticalMap:
        tactical_map = serializer.validated_data["map"]
        require(member_or_404(self.request, tactical_map.campaign_id), Action.EDIT_CAMPAIGN)
        return tactical_map


class TerrainRegionViewSet(_MapPartViewSet):
    serializer_class = RegionSerializer

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = service_checked(services.terrain_region_create, tactical_map=self._gm_map(serializer),
                                              name=data["name"], kind=data["kind"], points=data["points"],
                                              penalty=data.get("penalty", 0.0), actor=self.request.user)

    def perform_destroy(self, instance):
        require(member_or_404(self.request, instance.map.campaign_id), Action.EDIT_CAMPAIGN)
        services.terrain_region_delete(region=instance, actor=self.request.user)


class LocationViewSet(mixins.UpdateModelMixin, _MapPartViewSet):
    """Locations: a GM places one, changes it (PATCH: name, size, threshold, place, holder) or removes it."""

    serializer_class = LocationSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def perform_update(self, serializer):
        location = serializer.instance
        require(member_or_404(self.request, location.map.campaign_id), Action.EDIT_CAMPAIGN)
        data = serializer.validated_data
        if data.get("map", location.map) != location.map:
            raise ValidationError({"map": "A location stays on its map: remove it and place a new one."})
        holder = data.get("holder", location.holder)
        if holder is not None and holder.campaign_id != location.map.campaign_id:
            raise ValidationError({"holder": "The holder must be a commander of this campaign."})
        location = service_checked(services.location_update, location=location, name=data.get("name"),
                                   size=data.get("size"), capture_threshold=data.get("capture_threshold"),
                                   x=data.get("x"), y=data.get("y"), actor=self.request.user)
        if holder != location.holder:
            location = services.location_set_holder(location=location, holder=holder, actor=self.request.user)
        serializer.instance = location

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = service_checked(services.location_create, tactical_map=self._gm_map(serializer),
                                              name=data["name"], size=data.get("size", Location.Size.CAMP),
                                              x=data["x"], y=data["y"],
                                              capture_threshold=data.get("capture_threshold"),
                                              holder=data.get("holder"), actor=self.request.user)

    def perform_destroy(self, instance):
        require(member_or_404(self.request, instance.map.campaign_id), Action.EDIT_CAMPAIGN)
        services.location_delete(location=instance, actor=self.request.user)


class BaseSerializer(serializers.ModelSerializer):
    location = serializers.PrimaryKeyRelatedField(
        queryset=Location.objects.all(), required=False, allow_null=True,
        help_text="The location whose defender gets the bonus. Left out on create: the nearest where it stands.")

    class Meta:
        model = Base
        fields = ["id", "map", "name", "x", "y", "morale_bonus", "location", "spent_on"]
        read_only_fields = ["spent_on"]


class BaseViewSet(mixins.UpdateModelMixin, _MapPartViewSet):
    """Bases: a GM places one (linked to its location), moves, relinks or renames it (PATCH), removes it, and
    restores its spent Morale bonus (`restore`)."""

    serializer_class = BaseSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def perform_create(self, serializer):
        data = serializer.validated_data
        tactical_map = self._gm_map(serializer)
        location = (data["location"] if "location" in data else
                    services.base_location_near(tactical_map=tactical_map, x=data["x"], y=data["y"]))
        serializer.instance = service_checked(services.base_create, tactical_map=tactical_map, name=data["name"],
                                              x=data["x"], y=data["y"], morale_bonus=data.get("morale_bonus", 2),
                                              location=location, actor=self.request.user)

    def perform_update(self, serializer):
        base = serializer.instance
        require(member_or_404(self.request, base.map.campaign_id), Action.EDIT_CAMPAIGN)
        data = serializer.validated_data
        if data.get("map", base.map) != base.map:
            raise ValidationError({"map": "A Base stays on its map: remove it and place a new one."})
        serializer.instance = service_checked(
            services.base_update, base=base, name=data.get("name"), morale_bonus=data.get("morale_bonus"),
            x=data.get("x"), y=data.get("y"), location=data.get("location", "keep"), actor=self.request.user)

    def perform_destroy(self, instance):
        require(member_or_404(self.request, instance.map.campaign_id), Action.EDIT_CAMPAIGN)
        services.base_delete(base=instance, actor=self.request.user)

    @extend_schema(request=None, responses={200: BaseSerializer})
    @action(detail=True, methods=["post"])
    def restore(self, request, pk=None):
        """Restore the Base's spent Morale bonus: it can be spent again today."""
        base = self.get_object()
        require(member_or_404(request, base.map.campaign_id), Action.EDIT_CAMPAIGN)
        return Response(BaseSerializer(services.base_bonus_restore(base=base, actor=request.user)).data)


class MoveOrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = MoveOrder
        fields = ["id", "army", "kind", "status", "target_x", "target_y", "target_location", "path", "waypoints",
                  "ordered_hour", "arrival_hour", "done_hour"]
        read_only_fields = fields


class OrderInputSerializer(serializers.Serializer):
    army = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MoveOrder.Kind.choices)
    x = serializers.FloatField(required=False, allow_null=True)
    y = serializers.FloatField(required=False, allow_null=True)
    location = serializers.IntegerField(required=False, allow_null=True)
    target_army = serializers.IntegerField(required=False, allow_null=True)


class MoveOrderViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin,
                       viewsets.GenericViewSet):
    """Orders of the armies I command (a GM: all). POST ``preview/`` shows the route and arrival hour; POST
    confirms (replacing the army's order under way); DELETE cancels."""

    serializer_class = MoveOrderSerializer

    def get_queryset(self):
        if building_schema(self):
            return MoveOrder.objects.none()
        user = self.request.user
        mine = Q(army__campaign__memberships__user=user, army__campaign__memberships__role="gm") | Q(
            army__commander__player=user)
        return MoveOrder.objects.filter(mine).distinct().order_by("-id")

    def _args(self, request) -> dict:
        data = OrderInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        army = Army.objects.filter(pk=values["army"]).select_related("commander", "map").first()
        membership = membership_for(user=request.user, campaign=army.campaign_id) if army else None
        if army is None or membership is None or not (membership.is_gm or army.commander.player_id == request.user.pk):
            raise NotFound("No such army among yours.")
        args = {"army": army, "kind": values["kind"], "actor": request.user, "x": values.get("x"),
                "y": values.get("y")}
        if values.get("location"):
            args["location"] = Location.objects.filter(pk=values["location"], map__campaign_id=army.campaign_id).first()
        if values.get("target_army"):
            args["target_army"] = Army.objects.filter(pk=values["target_army"], campaign_id=army.campaign_id).first()
        return args

    @action(detail=False, methods=["post"])
    def preview(self, request):
        plan = service_checked(orders.move_order_plan, **self._args(request))
        return Response({"army": plan.army.pk, "kind": plan.kind, "target": plan.target, "path": plan.path,
                         "waypoints": plan.waypoints, "arrival_hour": plan.arrival_hour, "moves": plan.moves})

    def create(self, request):
        """The order, with the `sentence` said to the player (the offline queue shows it when the order is sent)."""
        order = service_checked(orders.army_order_move, **self._args(request))
        return Response({**MoveOrderSerializer(order).data, "sentence": orders.order_sent_sentence(order)},
                        status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance):
        service_checked(orders.move_order_cancel, order=instance, actor=self.request.user)

    def destroy(self, request, *args, **kwargs):
        self.perform_destroy(self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


class RevealSerializer(serializers.ModelSerializer):
    class Meta:
        model = Reveal
        fields = ["id", "army", "to_commander", "what", "hour", "x", "y", "miniatures", "created_at"]
        read_only_fields = ["hour", "x", "y", "miniatures", "created_at"]


class RevealViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """What GMs revealed: a GM sees every reveal of their campaigns, a player those made to their commanders."""

    serializer_class = RevealSerializer

    def get_queryset(self):
        if building_schema(self):
            return Reveal.objects.none()
        user = self.request.user
        mine = Q(army__campaign__memberships__user=user, army__campaign__memberships__role="gm") | Q(
            to_commander__player=user)
        return Reveal.objects.filter(mine).distinct().order_by("-id")

    def perform_create(self, serializer):
        data = serializer.validated_data
        require(member_or_404(self.request, data["army"].campaign_id), Action.EDIT_CAMPAIGN)
        serializer.instance = service_checked(services.reveal_create, army=data["army"],
                                              to_commander=data["to_commander"], what=data["what"],
                                              actor=self.request.user)


class ArmyUnitSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(help_text="A retinue's name; empty for an unnamed unit.")
    unit_type = serializers.CharField(source="unit_type.name")
    strength = serializers.IntegerField(allow_null=True, help_text='Empty for Strength "-".')


class ArmyRosterSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="army.pk")
    name = serializers.CharField(source="army.name")
    campaign = serializers.IntegerField(source="army.campaign_id")
    commander = serializers.IntegerField(source="army.commander_id")
    map = serializers.IntegerField(source="army.map_id", allow_null=True, help_text="Empty while in reserve.")
    x = serializers.SerializerMethodField(help_text="Inches from the map's left edge; empty while in reserve.")
    y = serializers.SerializerMethodField(help_text="Inches from the map's top edge; empty while in reserve.")
    units = ArmyUnitSerializer(many=True)
    miniatures = serializers.IntegerField()
    speed = serializers.FloatField(help_text="Inches per Move.")

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_x(self, roster: selectors.ArmyRoster) -> float | None:
        return roster.army.x if roster.on_map else None

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_y(self, roster: selectors.ArmyRoster) -> float | None:
        return roster.army.y if roster.on_map else None


class ArmyFormInputSerializer(serializers.Serializer):
    commander = serializers.IntegerField()
    name = serializers.CharField(max_length=120)
    units = serializers.ListField(child=serializers.IntegerField(), allow_empty=True)


class ArmySplitInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, help_text="The new army's name.")
    units = serializers.ListField(child=serializers.IntegerField(), allow_empty=True,
                                  help_text="The units that leave as the new army.")


class ArmyMergeInputSerializer(serializers.Serializer):
    into = serializers.IntegerField(help_text="The army this one joins; this one is gone afterwards.")


def _valid(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class ArmyViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The armies I command (a GM: every army of their campaigns), with position, units, miniatures and speed;
    ``?campaign=<id>`` and ``?commander=<id>`` narrow the list. POST forms an army of units in reserve;
    ``split/``, ``merge/`` and ``disband/`` change one. Fog of war: another player's army is not found."""

    serializer_class = ArmyRosterSerializer

    def get_queryset(self):
        if building_schema(self):
            return Army.objects.none()
        user = self.request.user
        gm_of = Membership.objects.filter(user=user, role=Role.GM).values("campaign_id")
        qs = Army.objects.filter(Q(campaign_id__in=gm_of) | Q(commander__player=user)).select_related("map")
        for param in ("campaign", "commander"):
            if (value := parse_id(self.request.query_params.get(param))) is not None:
                qs = qs.filter(**{f"{param}_id": value})
        return qs.order_by("pk")

    def _roster(self, army: Army, status_code: int = status.HTTP_200_OK) -> Response:
        [roster] = selectors.army_rosters(armies=[army])
        return Response(ArmyRosterSerializer(roster).data, status=status_code)

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ArmyRosterSerializer(selectors.army_rosters(armies=page),
                                                                many=True).data)

    def retrieve(self, request, pk=None):
        return self._roster(self.get_object())

    @extend_schema(request=ArmyFormInputSerializer, responses={201: ArmyRosterSerializer})
    def create(self, request):
        values = _valid(ArmyFormInputSerializer, request)
        commander = Commander.objects.filter(pk=values["commander"]).first()
        membership = membership_for(user=request.user, campaign=commander.campaign_id) if commander else None
        if commander is None or not may_act_for(membership, commander.player_id):
            raise NotFound("No such commander among yours.")
        army = service_checked(armies.army_form, commander=commander, name=values["name"], unit_ids=values["units"],
                               actor=request.user)
        return self._roster(Army.objects.select_related("map").get(pk=army.pk), status.HTTP_201_CREATED)

    @extend_schema(request=ArmySplitInputSerializer, responses={201: ArmyRosterSerializer})
    @action(detail=True, methods=["post"])
    def split(self, request, pk=None):
        values = _valid(ArmySplitInputSerializer, request)
        new = service_checked(armies.army_split, army=self.get_object(), unit_ids=values["units"],
                              name=values["name"], actor=request.user)
        return self._roster(Army.objects.select_related("map").get(pk=new.pk), status.HTTP_201_CREATED)

    @extend_schema(request=ArmyMergeInputSerializer, responses={200: ArmyRosterSerializer})
    @action(detail=True, methods=["post"])
    def merge(self, request, pk=None):
        army = self.get_object()
        into = self.get_queryset().filter(pk=_valid(ArmyMergeInputSerializer, request)["into"]).first()
        if into is None:
            raise NotFound("No such army among yours to merge into.")
        into = service_checked(armies.army_merge, army=army, into=into, actor=request.user)
        return self._roster(Army.objects.select_related("map").get(pk=into.pk))

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def disband(self, request, pk=None):
        service_checked(armies.army_disband, army=self.get_object(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
