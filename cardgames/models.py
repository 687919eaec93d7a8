"""Card-game matches: a game's record (config, seed, every action and chance outcome), who sits where
(a person or an AI, playing for a commander and staking lunari if the game master says so), the
encounter of the campaign it resolves, and the challenges players send each other to start one."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from cardgames.registry import CARD_GAMES, ENGINES, settings_shown


class AIPolicy(models.TextChoices):
    HUMAN = "", "A person"
    RANDOM = "random", "AI: random"
    GREEDY = "greedy", "AI: greedy"
    SEARCH = "search", "AI: search (ISMCTS)"


AI_POLICIES = tuple(value for value in AIPolicy.values if value)
"""The AIs that can play a seat (a person is not one)."""


class Match(models.Model):
    """One game of an engine. `state` is the engine's dump (secret: never sent to a player);
    `chance` and the actions are the replayable record; `version` counts applied actions."""

    class Status(models.TextChoices):
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="matches")
    event = models.ForeignKey("campaign.Event", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="matches")
    game = models.CharField(max_length=40, choices=[(name, title) for name, (_, title) in ENGINES.items()],
                            help_text="Any engine of the registry (Army Combat battles start in the battles app).")
    title = models.CharField(max_length=160, blank=True)
    config = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    state = models.JSONField(default=dict)
    chance = models.JSONField(default=list, help_text="Every chance outcome drawn, in order (for replay).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    result = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)
    bank_stake = models.PositiveIntegerField(default=0, help_text=(
        "Lunari the campaign's bank stakes against the person in a practice game with an AI (house rule "
        "card_ai_stakes): paid to the person if they win; if the AI wins, the bank keeps the person's stake."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", help_text="The game master resolving it (others see who).")
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return self.title or f"{self.get_game_display()} #{self.pk}"


class MatchSeat(models.Model):
    """Seat `seat` of a match: a person (user) or an AI policy. A person may play for one of their commanders
    and stake lunari from that commander's purse: the stake sits in escrow (`escrow`) until the match is decided."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="match_seats")
    ai = models.CharField(max_length=10, choices=AIPolicy.choices, blank=True, default=AIPolicy.HUMAN)
    commander = models.ForeignKey("campaign.Commander", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="match_seats", help_text="The commander this seat plays for.")
    stake = models.PositiveIntegerField(default=0, help_text="Lunari staked from the commander's purse.")
    escrow = models.OneToOneField("campaign.EscrowHold", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="match_seat", help_text="Where the stake is held.")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_seat"),
            models.CheckConstraint(condition=~models.Q(ai="") | models.Q(user__isnull=False),
                                   name="seat_has_a_person_or_an_ai"),
            models.CheckConstraint(condition=models.Q(commander__isnull=True) | models.Q(user__isnull=False),
                                   name="seat_commander_has_its_player"),
            models.CheckConstraint(condition=models.Q(stake=0, escrow__isnull=True)
                                   | models.Q(stake__gt=0, escrow__isnull=False, commander__isnull=False),
                                   name="seat_stake_held_in_escrow"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"

    @property
    def is_ai(self) -> bool:
        return bool(self.ai)


class MatchAction(models.Model):
    """One applied action, with the events it caused (each tagged with who may see it). Immutable."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    index = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="one_action_per_index")]

    def __str__(self) -> str:
        return f"{self.match} #{self.index}: seat {self.seat} {self.action}"


class Challenge(models.Model):
    """A player's challenge: their commander against another commander of the campaign, at a game with its
    settings, each side staking `stake` lunari. It stays open until the challenged commander's player accepts
    (the match starts, both stakes in escrow) or declines, or the challenger withdraws it."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey("campaign.Commander", on_delete=models.PROTECT, related_name="challenges_sent")
    challenged = models.ForeignKey("campaign.Commander", on_delete=models.PROTECT,
                                   related_name="challenges_received")
    game = models.CharField(max_length=40, choices=[(name, ENGINES[name][1]) for name in CARD_GAMES])
    config = models.JSONField(default=dict, blank=True, help_text="The settings that differ from the defaults.")
    stake = models.PositiveIntegerField(default=0, help_text="Lunari each side stakes.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="challenge")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(challenger=models.F("challenged")),
                                   name="challenge_not_oneself"),
            models.CheckConstraint(condition=models.Q(status="accepted", match__isnull=False)
                                   | (~models.Q(status="accepted") & models.Q(match__isnull=True)),
                                   name="challenge_accepted_iff_match"),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} to {self.get_game_display()}"

    def settings_changed(self) -> str:
        """The settings that differ from the game's defaults, in a few words ("" for none)."""
        return "; ".join(f"{s.label} {s.shown}" for s in settings_shown(self.game, self.config) if s.changed)
