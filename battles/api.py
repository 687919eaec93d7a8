"""Battles in the API: the Battles of my campaigns (read-only) and the exact odds of one Skirmish."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.engine.odds import ROLES, SkirmishSide, skirmish_odds
from battles.engine.state import TRAITS
from battles.models import Battle


class BattleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Battle
        fields = ["id", "campaign", "event", "day", "attacker_army", "defender_army", "attacker", "defender",
                  "location", "due_battle", "mode", "match", "status", "result", "notes", "created_at",
                  "finished_at", "applied_at"]
        read_only_fields = fields


class BattleViewSet(viewsets.ReadOnlyModelViewSet):
    """Battles of the campaigns I am a member of. A live Battle's table is its match (`/api/matches/<match>/table/`)."""

    serializer_class = BattleSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Battle.objects.none()
        return Battle.objects.filter(campaign__memberships__user=self.request.user).distinct() \
            .order_by("-created_at", "-id")


class SkirmishSideSerializer(serializers.Serializer):
    strength = serializers.IntegerField(min_value=0, max_value=100, help_text="Base Strength (a d6 is added).")
    role = serializers.ChoiceField(choices=sorted(ROLES), required=False, allow_null=True, allow_blank=True,
                                   help_text="Roles change the dice: Aggressor, Guardian, Equipment.")
    traits = serializers.ListField(child=serializers.ChoiceField(choices=TRAITS), required=False, default=list)
    card_bonuses = serializers.ListField(child=serializers.IntegerField(min_value=-20, max_value=20), required=False,
                                         default=list, max_length=20,
                                         help_text="One entry per other card adding to it (each also gives a "
                                                   "Savant +2).")
    power_bonus = serializers.IntegerField(min_value=-20, max_value=20, required=False, default=0,
                                           help_text="Commander powers and other non-card Adds (retinue +1...).")


def skirmish_side(data: dict) -> SkirmishSide:
    """A validated side as the odds module takes it."""
    return SkirmishSide(strength=data["strength"], role=data.get("role") or None,
                        traits=frozenset(data.get("traits") or ()), card_bonuses=tuple(data.get("card_bonuses") or ()),
                        power_bonus=data.get("power_bonus") or 0)


class SkirmishOddsSerializer(serializers.Serializer):
    offense = SkirmishSideSerializer()
    defense = SkirmishSideSerializer()

    def odds(self) -> dict[str, float]:
        d = self.validated_data
        return skirmish_odds(offense=skirmish_side(d["offense"]), defense=skirmish_side(d["defense"])).as_dict()


class SkirmishOddsView(APIView):
    """Exact chances of one Skirmish: each side winning, and each unit being Killed (before any save)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=SkirmishOddsSerializer, responses={200: inline_serializer("SkirmishOddsResult", {
        "offense_wins": serializers.FloatField(), "defense_wins": serializers.FloatField(),
        "offense_killed": serializers.FloatField(), "defense_killed": serializers.FloatField()})})
    def post(self, request):
        body = SkirmishOddsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(body.odds())
