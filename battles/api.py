"""Battles in the API: the Battles of my campaigns (read-only) and the exact odds of one Skirmish."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from battles import services
from battles.engine.odds import ROLES, SkirmishSide, skirmish_odds
from battles.engine.powers import TACTICIAN_CHOICES
from battles.engine.state import TRAITS
from battles.models import Battle
from battles.services import NPC_BY_GM
from campaign.economy.rules import DERVISH_CHOICES
from campaign.models import Army, DueBattle, Location
from cardgames.models import AIPolicy


class BattleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Battle
        fields = ["id", "campaign", "event", "day", "attacker_army", "defender_army", "attacker", "defender",
                  "location", "due_battle", "mode", "match", "status", "result", "notes", "created_at",
                  "finished_at", "applied_at"]
        read_only_fields = fields


class BattlePicksSerializer(serializers.Serializer):
    """What one commander picks at the start of a Battle (only their player or a GM picks for them)."""

    commander = serializers.IntegerField()
    dervish = serializers.ChoiceField(choices=DERVISH_CHOICES, required=False, allow_blank=True,
                                      help_text="A Dervish's Path or Role, chosen once per Day: the first Battle "
                                                "of the Day sets it, later ones may leave it out.")
    tactician = serializers.ChoiceField(choices=TACTICIAN_CHOICES, required=False, allow_blank=True,
                                        help_text="The power a Tactician copies this Battle (default: their usual "
                                                  "pick).")
    oathbound = serializers.IntegerField(required=False, allow_null=True,
                                         help_text="An Oathbound commander's designated unit.")


class BattleStartSerializer(serializers.Serializer):
    """A Battle due on the map (`due_battle`), or for a GM any two enemy armies."""

    due_battle = serializers.PrimaryKeyRelatedField(queryset=DueBattle.objects.none(), required=False)
    attacker_army = serializers.PrimaryKeyRelatedField(queryset=Army.objects.none(), required=False)
    defender_army = serializers.PrimaryKeyRelatedField(queryset=Army.objects.none(), required=False)
    location = serializers.PrimaryKeyRelatedField(queryset=Location.objects.none(), required=False, allow_null=True)
    mode = serializers.ChoiceField(choices=Battle.Mode.choices, default=Battle.Mode.LIVE)
    npc_seat = serializers.ChoiceField(choices=[NPC_BY_GM, *(v for v in AIPolicy.values if v)], default=NPC_BY_GM)
    picks = BattlePicksSerializer(many=True, required=False, default=list)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is None:  # the schema
            return
        user = request.user
        self.fields["due_battle"].queryset = DueBattle.objects.filter(event__campaign__memberships__user=user)
        self.fields["attacker_army"].queryset = self.fields["defender_army"].queryset = Army.objects.filter(
            campaign__memberships__user=user)
        self.fields["location"].queryset = Location.objects.filter(map__campaign__memberships__user=user)

    def validate(self, attrs):
        if not attrs.get("due_battle") and not (attrs.get("attacker_army") and attrs.get("defender_army")):
            raise serializers.ValidationError("Name a Battle due (`due_battle`), or both armies "
                                              "(`attacker_army`, `defender_army`).")
        return attrs


class BattleViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Battles of the campaigns I am a member of. A live Battle's table is its match (`/api/matches/<match>/table/`).
    POST starts one: a commander a Battle due for their army, a GM any; retrying a due Battle's start answers the
    Battle it began."""

    serializer_class = BattleSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Battle.objects.none()
        return Battle.objects.filter(campaign__memberships__user=self.request.user).distinct() \
            .order_by("-created_at", "-id")

    @extend_schema(request=BattleStartSerializer, responses={201: BattleSerializer})
    def create(self, request, *args, **kwargs):
        body = BattleStartSerializer(data=request.data, context={"request": request})
        body.is_valid(raise_exception=True)
        data = body.validated_data
        due = data.get("due_battle")
        battle = services.battle_start(
            attacker_army=due.first if due else data["attacker_army"],
            defender_army=due.second if due else data["defender_army"],
            location=data.get("location"), due_battle=due, mode=data["mode"], npc_seat=data["npc_seat"],
            actor=request.user, choices={p["commander"]: {k: v for k, v in p.items() if k != "commander"}
                                         for p in data["picks"]})
        return Response(BattleSerializer(battle).data, status=status.HTTP_201_CREATED)


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
