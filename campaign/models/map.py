"""The tactical map: its picture and scale, terrain, locations and Bases, move orders, the clock's hour log,
Battles due where armies meet, and what game masters revealed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from campaign.models.campaigns import Campaign, Day, Event
from campaign.models.commanders import Army, Commander


def _map_picture_path(instance: TacticalMap, filename: str) -> str:
    return f"maps/c{instance.campaign_id}/{filename}"


class TacticalMap(models.Model):
    """A campaign's tactical map: a picture and its scale in inches (height follows the picture's aspect ratio)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="tactical_map")
    name = models.CharField(max_length=120, default="Tactical map")
    picture = models.ImageField(upload_to=_map_picture_path, blank=True, help_text="A web-sized copy.")
    thumbnail = models.ImageField(upload_to=_map_picture_path, blank=True)
    picture_width = models.PositiveIntegerField(default=0, help_text="Pixels of the web-sized copy.")
    picture_height = models.PositiveIntegerField(default=0)
    width_inches = models.FloatField(default=48.0, validators=[MinValueValidator(1.0)],
                                     help_text="Inches the picture's width stands for.")
    height_inches = models.FloatField(default=36.0, validators=[MinValueValidator(1.0)],
                                      help_text="Follows from the width and the picture's aspect ratio.")
    contact_inches = models.FloatField(default=1.0, validators=[MinValueValidator(0.1)],
                                       help_text="How close an army must come to an enemy for a Battle to be due.")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(width_inches__gt=0) & Q(height_inches__gt=0),
                                              name="map_size_positive")]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign})"


class TerrainRegion(models.Model):
    """A terrain polygon in inches; especially challenging terrain has its own penalty (routing.TerrainKind)."""

    class Kind(models.TextChoices):
        OPEN = "open", "Open"
        DIFFICULT = "difficult", "Difficult"
        CHALLENGING = "challenging", "Especially challenging"
        IMPASSABLE = "impassable", "Impassable"

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="regions")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    penalty = models.FloatField(default=0.0, help_text="Inches of speed lost inside (especially challenging only).")
    points = models.JSONField(help_text="Corners as [[x, y], ...] in inches.")
    svg_points: str
    """Not a field: the corners as an SVG points attribute, set by campaign.map.selectors.map_view on the regions
    it shows."""

    class Meta:
        ordering = ["map", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind="challenging", penalty__gt=0) | (~Q(kind="challenging")
                                                                                  & Q(penalty=0)),
                                   name="terrain_penalty_only_when_challenging"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display().lower()})"


class Location(models.Model):
    """A camp, town or city: held by a commander or neutral, captured by Moves adding up to its threshold."""

    class Size(models.TextChoices):
        CAMP = "camp", "Camp"
        TOWN = "town", "Town"
        CITY = "city", "City"

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="locations")
    name = models.CharField(max_length=120)
    size = models.CharField(max_length=6, choices=Size.choices, default=Size.CAMP)
    x = models.FloatField()
    y = models.FloatField()
    capture_threshold = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    holder = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.SET_NULL, related_name="held",
                               help_text="Empty: neutral.")
    capture_progress = models.PositiveIntegerField(default=0)
    capturing_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                       help_text="The army whose Capture the progress belongs to.")

    class Meta:
        ordering = ["map", "name"]
        constraints = [
            models.UniqueConstraint(fields=["map", "name"], name="location_name_unique_per_map"),
            models.CheckConstraint(condition=Q(capture_threshold__gte=1), name="location_threshold_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_size_display().lower()})"


class Base(models.Model):
    """A Base grants its defending commander extra Morale, spent first and gone for the Day once spent."""

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="bases")
    name = models.CharField(max_length=120)
    location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="bases")
    x = models.FloatField()
    y = models.FloatField()
    morale_bonus = models.PositiveSmallIntegerField(default=2)
    spent_on = models.ForeignKey(Day, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                 help_text="The Day its bonus was used up; refreshed when the Day closes.")

    class Meta:
        ordering = ["map", "name"]

    def __str__(self) -> str:
        return self.name


class MoveOrder(models.Model):
    """An army's order: go to a point, a location or a seen enemy army, or Capture the location it holds.

    The planned route is kept: `path` is what is still ahead (starting where the army stands), and
    `arrival_hour` the event hour the preview promised. One active order per army.
    """

    class Kind(models.TextChoices):
        POINT = "point", "Move to a point"
        LOCATION = "location", "Move to a location"
        ARMY = "army", "Move against an army"
        CAPTURE = "capture", "Capture the location"

    class Status(models.TextChoices):
        ACTIVE = "active", "Under way"
        ARRIVED = "arrived", "Arrived"
        CAPTURED = "captured", "Captured"
        CANCELLED = "cancelled", "Cancelled"
        BLOCKED = "blocked", "Blocked"
        INTERRUPTED = "interrupted", "Interrupted by a Battle"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="move_orders")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="move_orders")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    target_x = models.FloatField()
    target_y = models.FloatField()
    target_location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    target_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    path = models.JSONField(default=list, help_text="The route still ahead, [[x, y], ...], from where the army is.")
    waypoints = models.JSONField(default=list, help_text="Where the army stands after each Move, as planned.")
    ordered_hour = models.PositiveIntegerField(help_text="The event hour processed when the order was given.")
    arrival_hour = models.PositiveIntegerField(help_text="The event hour at whose end the army arrives.")
    done_hour = models.PositiveIntegerField(null=True, blank=True)
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["army"], condition=Q(status="active"),
                                               name="one_active_order_per_army")]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for army {self.army_id} ({self.get_status_display().lower()})"


class HourLog(models.Model):
    """One processed in-game hour of an Event. Unique per (event, hour) among those standing: an hour is processed
    once, and again only after a game master reversed it (the reversed log stays)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hour_logs")
    hour = models.PositiveIntegerField()
    processed_at = models.DateTimeField(auto_now_add=True)
    moved = models.PositiveIntegerField(default=0)
    entries = models.JSONField(default=list, help_text="What happened: arrivals, captures, Battles due, blocks.")
    reversed = models.BooleanField(default=False, help_text="A game master reversed it: the hour is to come again.")

    class Meta:
        ordering = ["event", "-hour", "-id"]
        constraints = [models.UniqueConstraint(fields=["event", "hour"], condition=Q(reversed=False),
                                               name="hour_processed_once")]

    def __str__(self) -> str:
        return f"Hour {self.hour} of {self.event.name}"


class DueBattle(models.Model):
    """A Battle that came due at an hour: two armies met (at a location, `second` defends it)."""

    class Status(models.TextChoices):
        DUE = "due", "Due"
        FOUGHT = "fought", "Fought"
        CANCELLED = "cancelled", "Cancelled"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="due_battles")
    hour = models.PositiveIntegerField()
    first = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="+")
    location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="battles")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DUE)
    winner = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    routed = models.BooleanField(default=False)
    fought_hour = models.PositiveIntegerField(null=True, blank=True,
                                              help_text="The hour under way when the Battle ended.")
    claimed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", help_text="The game master resolving it (others see who).")
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-hour", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "hour", "first", "second"], condition=~Q(status="cancelled"),
                                    name="due_battle_once_per_hour"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="due_battle_two_armies"),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"Battle due at hour {self.hour}: army {self.first_id} v army {self.second_id}"


class Reveal(models.Model):
    """What a game master showed a commander's player of another army: where it was at an hour, or its size."""

    class What(models.TextChoices):
        POSITION = "position", "Position"
        SIZE = "size", "Size"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="reveals")
    to_commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="reveals")
    what = models.CharField(max_length=10, choices=What.choices)
    hour = models.PositiveIntegerField(default=0, help_text="The event hour the position is as of.")
    x = models.FloatField(null=True, blank=True)
    y = models.FloatField(null=True, blank=True)
    miniatures = models.PositiveSmallIntegerField(null=True, blank=True)
    revealed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_what_display()} of army {self.army_id} to {self.to_commander}"
