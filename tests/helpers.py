"""Small helpers shared by tests of several apps."""

from rest_framework.test import APIClient


def api_for(user) -> APIClient:
    """An API client acting as `user`."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def campaign_state(campaign) -> dict:
    """Everything a reversal must put back exactly, read from the database: purses and system balances,
    commanders' Morale and Influence, units, armies and their orders, locations, Bases, Battles due and Days."""
    from campaign.models import Account, Base, Commander, Day, DueBattle, Location, MoveOrder, Unit

    def rows(queryset, *fields):
        return sorted(queryset.values_list("pk", *fields))

    return {
        "balances": rows(Account.objects.filter(campaign=campaign).exclude(balance=0), "balance"),  # new ones hold 0
        "commanders": rows(Commander.objects.filter(campaign=campaign), "morale", "influence", "in_battle"),
        "units": rows(Unit.objects.filter(campaign=campaign), "state", "army_id"),
        "armies": rows(campaign.armies.all(), "x", "y", "map_id"),
        "orders": rows(MoveOrder.objects.filter(army__campaign=campaign), "status", "path", "arrival_hour",
                       "done_hour"),
        "locations": rows(Location.objects.filter(map__campaign=campaign), "holder_id", "capture_progress",
                          "capturing_army_id"),
        "bases": rows(Base.objects.filter(map__campaign=campaign), "spent_on_id"),
        "due_battles": rows(DueBattle.objects.filter(event__campaign=campaign).exclude(status="cancelled"),
                            "status", "winner_id", "fought_hour"),
        "days": rows(Day.objects.filter(event__campaign=campaign), "status", "closed_at"),
        "events": rows(campaign.events.all(), "current_hour"),
    }
