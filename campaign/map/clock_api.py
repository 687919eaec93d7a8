"""The event clock and Battles due in the API: the clock's controls for game masters, due Battles (fog of
war applied by campaign.map.selectors) and their outcome or cancellation.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from campaign.campaigns.permissions import Action, require
from campaign.economy import upkeep
from campaign.map import clock, selectors, services
from campaign.map.api import building_schema, member_or_404, service_checked
from campaign.models import (
    Army,
    Day,
    DueBattle,
    Event,
)
from campaign.web.numbers import parse_id


class EventClockSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    status = serializers.CharField()
    hour = serializers.IntegerField()
    minutes_per_hour = serializers.IntegerField()
    next_hour_at = serializers.DateTimeField(allow_null=True)
    day = serializers.IntegerField(allow_null=True, help_text="The open Day's id: what close-day takes.")


class DayToCloseSerializer(serializers.Serializer):
    day = serializers.IntegerField(help_text="The id of the Day to close (the clock's `day`). A Day already "
                                             "closed is answered as it is, so a retried request closes nothing "
                                             "twice.")


class AdvanceSerializer(serializers.Serializer):
    to_hour = serializers.IntegerField(min_value=1, required=False,
                                       help_text="The hour to reach; if it is done already, nothing moves.")


@extend_schema(request=None, responses=EventClockSerializer)
class EventClockViewSet(viewsets.GenericViewSet):
    """The clock of an Event of my campaigns: GET shows it; GMs POST start, pause, resume, advance, close-day."""

    serializer_class = EventClockSerializer

    def get_queryset(self):
        if building_schema(self):
            return Event.objects.none()
        return Event.objects.filter(campaign__memberships__user=self.request.user).order_by("pk")

    def _state(self, event: Event) -> dict:
        next_at = clock.event_next_hour_at(event=event)
        day = Day.objects.filter(event=event, status=Day.Status.OPEN).values_list("pk", flat=True).first()
        return {"event": event.pk, "status": event.status, "hour": event.current_hour,
                "minutes_per_hour": event.minutes_per_hour, "next_hour_at": next_at.isoformat() if next_at else None,
                "day": day}

    @extend_schema(parameters=[OpenApiParameter("campaign", int, description="Only this campaign's Events.")],
                   responses=EventClockSerializer(many=True))
    def list(self, request):
        """The clock of every Event of my campaigns (``?campaign=``), oldest Event first."""
        events = self.get_queryset()
        wanted = parse_id(request.query_params.get("campaign"))
        if wanted is not None:
            events = events.filter(campaign_id=wanted)
        return self.get_paginated_response([self._state(event) for event in self.paginate_queryset(events)])

    def retrieve(self, request, pk=None):
        return Response(self._state(get_object_or_404(self.get_queryset(), pk=pk)))

    def _control(self, request, pk, call) -> Response:
        event = get_object_or_404(self.get_queryset(), pk=pk)
        require(member_or_404(request, event.campaign_id), Action.RUN_CLOCK)
        service_checked(call, event)
        event.refresh_from_db()
        return Response(self._state(event))

    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._control(request, pk, lambda e: clock.event_clock_start(event=e, actor=request.user))

    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._control(request, pk, lambda e: clock.event_clock_pause(event=e, actor=request.user))

    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._control(request, pk, lambda e: clock.event_clock_resume(event=e, actor=request.user))

    @extend_schema(request=AdvanceSerializer, responses=EventClockSerializer)
    @action(detail=True, methods=["post"])
    def advance(self, request, pk=None):
        """Process the next hour now. Send `to_hour` (the clock's hour + 1) so that a retried request moves
        nothing twice."""
        body = AdvanceSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._control(request, pk, lambda e: clock.event_clock_advance(
            event=e, actor=request.user, to_hour=body.validated_data.get("to_hour")))

    @extend_schema(request=DayToCloseSerializer, responses=EventClockSerializer)
    @action(detail=True, methods=["post"], url_path="close-day")
    def close_day(self, request, pk=None):
        """Close the Day named in the body; the same request sent twice closes it once."""
        body = DayToCloseSerializer(data=request.data)
        if not body.is_valid():
            raise ValidationError({"day": "Say which Day to close: send the clock's `day` (the open Day's id)."})

        def close(event):
            day = Day.objects.filter(event=event, pk=body.validated_data["day"]).first()
            if day is None:
                raise DjangoValidationError(f"{event.name} has no such Day: send the clock's `day`.")
            return upkeep.day_close(day=day, actor=request.user)
        return self._control(request, pk, close)


class DueBattleRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    hour = serializers.IntegerField()
    armies = serializers.ListField(child=serializers.IntegerField())
    location = serializers.IntegerField(allow_null=True)


class DueBattleOutcomeSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text="The winning army's id.")
    routed = serializers.BooleanField(default=False)


class DueBattleViewSet(viewsets.GenericViewSet):
    """Battles due in my campaigns (``?event=<id>``): a GM sees both armies; a player only their own army's
    Battles, without the enemy army. GMs POST ``<id>/outcome/`` with winner and routed."""

    serializer_class = DueBattleRowSerializer
    queryset = DueBattle.objects.none()

    def list(self, request):
        event = get_object_or_404(Event.objects.filter(campaign__memberships__user=request.user).distinct(),
                                  pk=request.query_params.get("event") or 0)
        membership = member_or_404(request, event.campaign_id)
        own = set() if membership.is_gm else selectors.own_commander_ids(membership=membership)
        rows = selectors.due_battles_for(event=event, is_gm=membership.is_gm, own_ids=own)
        return Response([{"id": b["id"], "hour": b["hour"], "armies": [pk for pk, _ in b["sides"]],
                          "location": b["location"].pk if b["location"] else None} for b in rows])

    @extend_schema(request=DueBattleOutcomeSerializer, responses={200: dict})
    @action(detail=True, methods=["post"])
    def outcome(self, request, pk=None):
        battle = get_object_or_404(DueBattle.objects.filter(event__campaign__memberships__user=request.user)
                                   .distinct(), pk=pk)
        require(member_or_404(request, battle.event.campaign_id), Action.RUN_CLOCK)
        winner_id = int(request.data.get("winner") or 0)
        if winner_id not in (battle.first_id, battle.second_id):
            raise ValidationError({"winner": "Name the winner: one of the two armies of this Battle."})
        loser_id = battle.second_id if winner_id == battle.first_id else battle.first_id
        armies = Army.objects.in_bulk([winner_id, loser_id])
        battle = service_checked(services.battle_outcome_apply_to_map, due_battle=battle, winner_army=armies[winner_id],
                                 loser_army=armies[loser_id], routed=bool(request.data.get("routed")))
        return Response({"id": battle.pk, "status": battle.status, "winner": battle.winner_id})
