"""Matches in the API: my matches, the table as my seat sees it, and acting on it."""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from cardgames import selectors, services
from cardgames.models import Match, MatchSeat


class MatchSeatSerializer(serializers.ModelSerializer):
    commander_name = serializers.StringRelatedField(source="commander", allow_null=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "name", "ai", "commander", "commander_name", "stake"]


class StakesSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="Lunari staked by all seats together.")
    status = serializers.ChoiceField(choices=["held", "paid", "returned"],
                                     help_text="held in escrow, paid to the winner's commander, or returned.")
    paid_to = serializers.IntegerField(source="paid_to.pk", read_only=True, allow_null=True,
                                       help_text="The id of the commander who took the pot.")


class MatchSerializer(serializers.ModelSerializer):
    seats = MatchSeatSerializer(many=True, read_only=True)
    stakes = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "campaign", "event", "game", "title", "status", "result", "version", "seats", "stakes",
                  "created_at", "finished_at"]
        read_only_fields = fields

    @extend_schema_field(StakesSerializer(allow_null=True))
    def get_stakes(self, match: Match) -> dict | None:
        stakes = selectors.match_stakes(match=match)
        return StakesSerializer(stakes).data if stakes else None


class ActSerializer(serializers.Serializer):
    action = serializers.ListField(help_text="One of the table's `legal_actions`, e.g. [\"pass\"].")
    version = serializers.IntegerField(required=False, help_text="The table version the move was chosen on.")


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches of my campaigns. `table` is what my seat may see (a spectator's view if I have no seat)."""

    serializer_class = MatchSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        return Match.objects.filter(campaign__memberships__user=self.request.user) \
            .prefetch_related("seats__commander", "seats__escrow").distinct().order_by("-created_at", "-id")

    @extend_schema(responses={200: dict})
    @action(detail=True, methods=["get"])
    def table(self, request, pk=None):
        match = self.get_object()
        seat = selectors.match_seat_for(match=match, user=request.user)
        table = selectors.match_table(match=match, seat=seat)
        return Response({"version": match.version, "seat": seat, "to_move": table.to_move, "over": table.over,
                         "view": table.view, "legal_actions": [{"label": label, "action": json.loads(a)}
                                                               for label, a in table.actions],
                         "log": table.log})

    @extend_schema(request=ActSerializer, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def act(self, request, pk=None):
        match = self.get_object()
        seat = selectors.match_seat_for(match=match, user=request.user)
        if seat is None:
            raise NotFound("You have no seat at this table.")
        body = ActSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            match = services.match_act(match_id=match.pk, seat=seat, action=body.validated_data["action"],
                                       user=request.user, expected_version=body.validated_data.get("version"))
        except ValidationError as exc:
            raise serializers.ValidationError({"action": exc.messages}) from None
        return Response(MatchSerializer(match).data)
