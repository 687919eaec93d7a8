"""Matches in the API: my matches, starting one (a game master), the table as my seat sees it, and acting on it;
a player's practice game against an AI, and challenges between commanders (sent, listed, answered)."""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from campaign.campaigns.permissions import Action as Permission
from campaign.campaigns.permissions import membership_for, require
from campaign.models import Commander, Role
from campaign.web.numbers import MAX_AMOUNT
from cardgames import challenges, claims, selectors, services
from cardgames.models import AI_POLICIES, AIPolicy, Challenge, Match, MatchSeat
from cardgames.registry import CARD_GAME_CHOICES, seats_refusal

MAX_ID = 10**18 - 1
"""Ids are at most 18 digits (`campaign.web.numbers`): every such number fits the database."""


class MatchSeatSerializer(serializers.ModelSerializer):
    commander_name = serializers.StringRelatedField(source="commander", allow_null=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "name", "ai", "commander", "commander_name", "stake"]


class StakesSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="Lunari staked by all seats (and the bank) together.")
    status = serializers.ChoiceField(choices=["held", "paid", "returned", "kept"],
                                     help_text="held in escrow, paid to the winner's commander, returned, or kept "
                                               "by the bank (an AI beat a person who played the bank).")
    bank = serializers.IntegerField(help_text="Lunari the campaign's bank staked (a practice game by house rule).")
    paid_to = serializers.IntegerField(source="paid_to.pk", read_only=True, allow_null=True,
                                       help_text="The id of the commander who took the pot.")


class MatchSerializer(serializers.ModelSerializer):
    seats = MatchSeatSerializer(many=True, read_only=True)
    stakes = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "campaign", "event", "game", "title", "status", "result", "version", "seats", "stakes",
                  "claimed_by", "claimed_at", "created_at", "finished_at"]
        read_only_fields = fields

    @extend_schema_field(StakesSerializer(allow_null=True))
    def get_stakes(self, match: Match) -> dict | None:
        stakes = selectors.match_stakes(match=match)
        return StakesSerializer(stakes).data if stakes else None


class ActSerializer(serializers.Serializer):
    action = serializers.ListField(help_text="One of the table's `legal_actions`, e.g. [\"pass\"].")
    version = serializers.IntegerField(required=False, help_text="The table version the move was chosen on.")


class SeatInputSerializer(serializers.Serializer):
    user = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID,
                                    help_text="A member of the campaign who plays this seat (their id).")
    ai = serializers.ChoiceField(choices=AI_POLICIES, required=False,
                                 help_text="Or the AI that plays it.")
    commander = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID,
                                         help_text="The commander (id) the seat's person plays for.")
    stake = serializers.IntegerField(min_value=0, max_value=MAX_AMOUNT, default=0,
                                     help_text="Lunari of the commander's purse held in escrow until the end.")

    def validate(self, attrs: dict) -> dict:
        if (attrs.get("user") is None) == (attrs.get("ai") is None):
            raise serializers.ValidationError("Name who plays each seat: a `user` or an `ai`, one of the two.")
        return attrs


class MatchCreateSerializer(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID,
                                        help_text="The campaign (id) whose game master starts the match.")
    game = serializers.ChoiceField(choices=CARD_GAME_CHOICES)
    title = serializers.CharField(max_length=160, required=False, default="", allow_blank=True)
    seats = SeatInputSerializer(many=True, help_text="In seat order; as many as the game takes (see `config`).")
    config = serializers.JSONField(required=False, default=dict, help_text=(
        "The settings that differ from the game's defaults, in the engine's own form, e.g. {\"hand_size\": 6} "
        "(Unity) or {\"house_rules\": {\"start_dice\": 4}} (Unholy War). Unity, Unholy War and Squad Combat "
        "take 2 to 6 seats, Command Dice exactly 2."))

    def validate(self, attrs: dict) -> dict:
        refusal = seats_refusal(attrs["game"], len(attrs["seats"]))
        if refusal:
            raise serializers.ValidationError({"seats": [refusal]})
        users = [seat["user"] for seat in attrs["seats"] if seat.get("user") is not None]
        if len(users) != len(set(users)):
            raise serializers.ValidationError({"seats": ["Each person sits once: a user is named twice."]})
        return attrs


class _PlayerEncounterSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=CARD_GAME_CHOICES)
    stake = serializers.IntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    config = serializers.JSONField(required=False, default=dict,
                                   help_text="The settings that differ from the game's defaults, as for a match.")


class PracticeSerializer(_PlayerEncounterSerializer):
    commander = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="My commander (id) who plays.")
    policy = serializers.ChoiceField(choices=AI_POLICIES,
                                     help_text="The AI to play against.")


class ChallengeSerializer(serializers.ModelSerializer):
    challenger_name = serializers.StringRelatedField(source="challenger")
    challenged_name = serializers.StringRelatedField(source="challenged")

    class Meta:
        model = Challenge
        fields = ["id", "campaign", "challenger", "challenger_name", "challenged", "challenged_name", "game",
                  "config", "stake", "status", "match", "created_at", "answered_at"]
        read_only_fields = fields


class ChallengeCreateSerializer(_PlayerEncounterSerializer):
    challenger = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="My commander (id).")
    challenged = serializers.IntegerField(min_value=1, max_value=MAX_ID,
                                          help_text="The commander (id) challenged, of the same campaign.")
    stake = serializers.IntegerField(min_value=0, max_value=MAX_AMOUNT, default=0,
                                     help_text="Lunari each side stakes, held in escrow when the challenge is "
                                               "accepted.")


def _commander(user, commander_id: int, field: str) -> Commander:
    """A commander of a campaign the user is a member of (else a 400 naming the field)."""
    commander = Commander.objects.filter(pk=commander_id, campaign__memberships__user=user) \
        .select_related("campaign", "player").first()
    if commander is None:
        raise serializers.ValidationError({field: [f"There is no commander {commander_id} in your campaigns."]})
    return commander


class ChallengeViewSet(viewsets.ReadOnlyModelViewSet):
    """Challenges sent by or to my commanders (all of a campaign's for its game master). `accept` starts the
    match with both stakes in escrow (a retried accept answers the same match); `decline` and `withdraw` move
    nothing. Another player's challenge is a 404; answering for a commander not mine is a 403."""

    serializer_class = ChallengeSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Challenge.objects.none()
        gm_of = list(self.request.user.memberships.filter(role=Role.GM).values_list("campaign_id", flat=True))
        return selectors.challenges_visible(user=self.request.user, gm_of=gm_of).order_by("-created_at", "-id")

    @extend_schema(request=ChallengeCreateSerializer, responses={201: ChallengeSerializer})
    def create(self, request):
        """Challenge another commander of my commander's campaign to a game, with its settings and a stake."""
        body = ChallengeCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        challenger = _commander(request.user, data.pop("challenger"), "challenger")
        challenged = _commander(request.user, data.pop("challenged"), "challenged")
        challenge = challenges.challenge_create(challenger=challenger, challenged=challenged, actor=request.user,
                                                **data)
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        match = challenges.challenge_accept(challenge=self.get_object(), actor=request.user)
        return Response(MatchSerializer(match).data)

    @extend_schema(request=None, responses={200: ChallengeSerializer})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return Response(ChallengeSerializer(challenges.challenge_decline(challenge=self.get_object(),
                                                                         actor=request.user)).data)

    @extend_schema(request=None, responses={200: ChallengeSerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        return Response(ChallengeSerializer(challenges.challenge_withdraw(challenge=self.get_object(),
                                                                          actor=request.user)).data)


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches of my campaigns. `table` is what my seat may see (a spectator's view if I have no seat).
    A game master starts one with `create`, and `claim`s one to resolve it (`release` lets it go): the other game
    masters see `claimed_by`; a retried claim or release changes nothing, another game master's claim is a 400
    naming them."""

    serializer_class = MatchSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        return Match.objects.filter(campaign__memberships__user=self.request.user) \
            .prefetch_related("seats__commander", "seats__escrow").distinct().order_by("-created_at", "-id")

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer})
    def create(self, request):
        """Start a match: seats in order (a member or an AI each), the settings that differ from the defaults.
        Refusals are 400s that say what to fix (a seat count the game does not take, a setting it does not
        have, the engine's own check of a deck or a house rule, a stake a purse cannot cover)."""
        body = MatchCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        membership = membership_for(user=request.user, campaign=data["campaign"])
        if membership is None:
            raise NotFound("No such campaign.")
        require(membership, Permission.MANAGE_EVENTS)
        campaign = membership.campaign
        match = services.match_create(campaign=campaign, game=data["game"], title=data["title"],
                                      config=data["config"], actor=request.user,
                                      seats=[_seat_spec(campaign, index, seat)
                                             for index, seat in enumerate(data["seats"])])
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PracticeSerializer, responses={201: MatchSerializer})
    @action(detail=False, methods=["post"])
    def practice(self, request):
        """Start a practice game of my commander against an AI: nothing staked, unless the campaign's house rule
        `card_ai_stakes` lets the bank match the stake (then the bank keeps it if the AI wins)."""
        body = PracticeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        commander = _commander(request.user, data.pop("commander"), "commander")
        match = challenges.practice_start(commander=commander, actor=request.user, **data)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

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

    @extend_schema(request=ActSerializer, responses={
        200: MatchSerializer, 409: OpenApiResponse(description="The table moved on since `version`: not played.")})
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
            if services.is_stale(exc):
                return Response({"detail": " ".join(exc.messages)}, status=status.HTTP_409_CONFLICT)
            raise serializers.ValidationError({"action": exc.messages}) from None
        return Response(MatchSerializer(match).data)


    @extend_schema(request=None, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def claim(self, request, pk=None):
        return self._claimed(claims.match_claim)

    @extend_schema(request=None, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def release(self, request, pk=None):
        return self._claimed(claims.match_release)

    def _claimed(self, change) -> Response:
        """`change` (claim or release) done by a game master of the match's campaign (a player: 403)."""
        match = self.get_object()
        require(membership_for(user=self.request.user, campaign=match.campaign_id), Permission.MANAGE_EVENTS)
        change(match=match, actor=self.request.user)
        match.refresh_from_db()
        return Response(MatchSerializer(match).data)


def _seat_spec(campaign, index: int, seat: dict) -> services.SeatSpec:
    """A seat of the API's request as the service takes it: the member or AI, and the campaign's commander."""
    commander = None
    if seat.get("commander") is not None:
        commander = Commander.objects.filter(pk=seat["commander"], campaign=campaign).select_related("player").first()
        if commander is None:
            raise serializers.ValidationError({"seats": [f"Seat {index + 1}: there is no commander "
                                                         f"{seat['commander']} in this campaign."]})
    stake = seat["stake"]
    if seat.get("ai"):
        return services.SeatSpec(dict(AIPolicy.choices)[seat["ai"]], None, seat["ai"], commander, stake)
    member = campaign.memberships.filter(user_id=seat["user"]).select_related("user").first()
    if member is None:
        raise serializers.ValidationError({"seats": [f"Seat {index + 1}: user {seat['user']} is not a member "
                                                     "of this campaign."]})
    return services.SeatSpec(member.user.get_username(), member.user, AIPolicy.HUMAN, commander, stake)
