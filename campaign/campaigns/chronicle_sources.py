"""The chronicle's items read from the records, one reader per kind, each in one or two queries: Battles and
encounters from their games, captures and arrivals from the map's hour log, recruits, trainings and deaths
from the audit trail, funding from the ledger and funding requests, corrections from the reversed records
(a reversed hour's captures and arrivals are left out: they did not stand). Each item names the commanders it
concerns; who may read it is decided in campaign.campaigns.chronicle, not here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from battles.models import Battle
from campaign.models import (
    Army,
    AuditEntry,
    Campaign,
    Commander,
    FundingRequest,
    HourLog,
    LedgerEntry,
    LedgerTransaction,
    Location,
    Reversible,
    Unit,
)
from cardgames.models import Match, MatchSeat
from cardgames.registry import game_title

KINDS = {"battle": "Battles", "encounter": "Encounters", "capture": "Captures", "arrival": "Arrivals",
         "recruit": "Recruits", "training": "Trainings", "death": "Deaths", "funding": "Funding",
         "correction": "Corrections"}


@dataclass(frozen=True, slots=True)
class Told:
    """An item's words and its link; `page_of` is the commander whose page the link opens (None: any member
    may open it)."""

    words: str
    link: str = ""
    link_label: str = ""
    page_of: int | None = None


@dataclass(frozen=True, slots=True)
class ChronicleEntry:
    """One thing that happened: `full` for a game master and the players of the commanders it concerns,
    `public` for every other member (None: for nobody else)."""

    key: str
    kind: str
    at: datetime
    full: Told
    commanders: frozenset[int]
    public: Told | None = None


@dataclass(frozen=True)
class _Records:
    campaign: Campaign
    kinds: frozenset[str]
    names: dict[int, str]
    since: datetime | None
    until: datetime | None
    pages: dict[int, str] = field(default_factory=dict)

    def window(self, rows: QuerySet, column: str) -> QuerySet:
        """The rows whose `column` (a time) falls in the Day asked for, if one was."""
        if self.since is not None:
            rows = rows.filter(**{f"{column}__gte": self.since})
        if self.until is not None:
            rows = rows.filter(**{f"{column}__lte": self.until})
        return rows

    def name(self, commander_id: int | None) -> str:
        return self.names.get(commander_id or 0, "a commander no longer in the campaign")

    def url(self, name: str, *args: object) -> str:
        return reverse(name, args=(self.campaign.slug, *args))

    def commander_told(self, words: str, commander_id: int | None) -> Told:
        if commander_id is None:
            return Told(words)
        link = self.pages.get(commander_id)
        if link is None:  # each commander's address is reversed once: reverse() costs more than the rest of an item
            link = self.pages[commander_id] = self.url("commander-detail", commander_id)
        return Told(words, link, self.name(commander_id), commander_id)


def _ids(*commander_ids: int | None) -> frozenset[int]:
    """The commanders an item concerns (an army or unit gone since names none)."""
    return frozenset(pk for pk in commander_ids if pk is not None)


def chronicle_entries(*, campaign: Campaign, kinds: list[str], since: datetime | None = None,
                      until: datetime | None = None) -> list[ChronicleEntry]:
    """Every item of the kinds asked for that happened between `since` and `until` (either may be None)."""
    records = _Records(campaign=campaign, kinds=frozenset(kinds), since=since, until=until,
                       names=dict(Commander.objects.filter(campaign=campaign).values_list("pk", "name")))
    entries: list[ChronicleEntry] = []
    for reader, read_kinds in _READERS:
        if read_kinds & records.kinds:
            entries.extend(reader(records))
    return entries


def _battles(records: _Records) -> list[ChronicleEntry]:
    """Finished Battles, linked to their replay."""
    rows = records.window(Battle.objects.filter(
        campaign=records.campaign, status__in=(Battle.Status.FINISHED, Battle.Status.APPLIED),
        finished_at__isnull=False), "finished_at").select_related("location").only(
        "id", "attacker_id", "defender_id", "status", "result", "finished_at", "location__name").order_by()
    entries = []
    for battle in rows:
        sides = (records.name(battle.attacker_id), records.name(battle.defender_id))
        where = f" at {battle.location.name}" if battle.location else ""
        winner, routed = battle.result.get("winner"), battle.result.get("routed")
        outcome = f"{sides[winner]} won" if winner in (0, 1) else "neither side won"
        if routed in (0, 1):
            outcome += f", {sides[routed]} routed"
        if battle.status == Battle.Status.FINISHED:
            outcome += " (the result waits to be confirmed)"
        told = Told(f"{sides[0]} attacked {sides[1]}{where}: {outcome}.", records.url("battle-replay", battle.pk),
                    "Replay")
        entries.append(ChronicleEntry(key=f"battle:{battle.pk}", kind="battle", at=battle.finished_at, full=told,
                                      public=told, commanders=frozenset((battle.attacker_id, battle.defender_id))))
    return entries


def _encounters(records: _Records) -> list[ChronicleEntry]:
    """Finished card-game encounters (not the games behind live Battles), linked to their replay."""
    seats = Prefetch("seats", queryset=MatchSeat.objects.only("match_id", "seat", "name", "commander_id")
                     .order_by("seat"))
    rows = records.window(Match.objects.filter(campaign=records.campaign, status=Match.Status.FINISHED,
                                               battle__isnull=True, finished_at__isnull=False), "finished_at")
    entries = []
    for match in rows.only("id", "game", "title", "result", "finished_at").prefetch_related(seats).order_by():
        seated = list(match.seats.all())
        names = {s.seat: records.name(s.commander_id) if s.commander_id else s.name for s in seated}
        game = game_title(match.game) + (f" ({match.title})" if match.title else "")
        winner = match.result.get("winner")
        if winner in names:
            others = [name for seat, name in names.items() if seat != winner]
            words = f"{names[winner]} won a game of {game} against {_and(others)}."
        else:
            words = f"{_and(list(names.values()))} played {game} to a draw."
        told = Told(words, records.url("match-replay", match.pk), "Replay")
        entries.append(ChronicleEntry(key=f"match:{match.pk}", kind="encounter", at=match.finished_at, full=told,
                                      public=told, commanders=_ids(*(s.commander_id for s in seated))))
    return entries


def _and(names: list[str]) -> str:
    """Names in a sentence: "A", "A and B", "A, B and C"."""
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def _map_hours(records: _Records) -> list[ChronicleEntry]:
    """Captures and arrivals, from each hour's log on the map. A capture's public words name the location and
    its new holder only; an arrival concerns its army's commander alone."""
    logs = list(records.window(HourLog.objects.filter(event__campaign=records.campaign, reversed=False),
                               "processed_at")
                .select_related("event").only("id", "hour", "processed_at", "entries", "event__name").order_by())
    arrived = {item["army"] for log in logs for item in log.entries if item.get("kind") == "arrived"
               and "arrival" in records.kinds}
    owners = dict(Army.objects.filter(pk__in=arrived).values_list("pk", "commander_id")) if arrived else {}
    places = list(Location.objects.filter(map__campaign=records.campaign).values_list(
        "name", "x", "y", "map__contact_inches")) if arrived else []
    link = records.url("map")
    entries = []
    for log in logs:
        when = f"at hour {log.hour} of {log.event.name}"
        for index, item in enumerate(log.entries):
            key = f"hour:{log.pk}:{index}"
            if item.get("kind") == "captured" and "capture" in records.kinds:
                holder = records.name(item.get("commander"))
                entries.append(ChronicleEntry(
                    key=key, kind="capture", at=log.processed_at,
                    commanders=_ids(item.get("commander")),
                    full=Told(f"{item['army_name']} ({holder}) captured {item['name']} {when}.", link, "Map"),
                    public=Told(f"{item['name']} passed to {holder} {when}.", link, "Map")))
            elif item.get("kind") == "arrived" and "arrival" in records.kinds:
                owner = owners.get(item["army"])
                place = _place(places, item.get("at") or [0.0, 0.0])
                entries.append(ChronicleEntry(
                    key=key, kind="arrival", at=log.processed_at, commanders=_ids(owner),
                    full=Told(f"{item['name']} ({records.name(owner)}) arrived {place} {when}.", link, "Map")))
    return entries


def _place(places: list[tuple[str, float, float, float]], at: list[float]) -> str:
    """Where an army stands, in words: at the location it is in contact with, else at its point on the map."""
    for name, x, y, contact in places:
        if math.dist((x, y), (at[0], at[1])) <= contact:
            return f"at {name}"
    return f"at ({at[0]:.1f}, {at[1]:.1f})"


_UNIT_ACTIONS = {"unit.recruit": "recruit", "unit.train": "training", "unit.kill": "death"}


def _units(records: _Records) -> list[ChronicleEntry]:
    """Recruits, trainings and deaths, from the audit trail, with the unit's commander of today."""
    actions = [action for action, kind in _UNIT_ACTIONS.items() if kind in records.kinds]
    rows = list(records.window(AuditEntry.objects.filter(campaign=records.campaign, action__in=actions), "at")
                .values_list("pk", "action", "target", "data", "at").order_by())
    unit_ids = {data.get("unit") for _, _, _, data, _ in rows} - {None}
    units = {pk: (commander_id, name or type_name) for pk, commander_id, name, type_name in Unit.objects.filter(
        pk__in=unit_ids).values_list("pk", "commander_id", "name", "unit_type__name")} if unit_ids else {}
    undone = _undone_deaths(records, rows) if "death" in records.kinds else set()
    entries = []
    for pk, action, target, data, at in rows:
        kind = _UNIT_ACTIONS[action]
        if pk in undone:
            continue
        commander_id, label = units.get(data.get("unit"), (data.get("commander"), target))
        commander_id = data.get("commander", commander_id)
        who = records.name(commander_id)
        payer = data.get("paid_by")
        paid = f", paid by {records.name(payer)}" if payer and payer != commander_id else ""
        if kind == "recruit":
            price = f" for {data['price']} lunari" if data.get("price") else ""
            words = f"{who} recruited {label}{price}{paid}."
        elif kind == "training":
            words = (f"{who} trained {label} to Strength {data.get('strength', '?')}, "
                     f"for {data.get('paid', 0)} lunari{paid}.")
        else:
            words = f"{who}'s {label} was Killed."
        entries.append(ChronicleEntry(key=f"audit:{pk}", kind=kind, at=at, commanders=_ids(commander_id, payer),
                                      full=records.commander_told(words, commander_id)))
    return entries


def _undone_deaths(records: _Records, rows: list) -> set[int]:
    """The audit rows of deaths that did not happen: for each Battle result a game master reversed, each unit it
    Killed has its last death recorded before the reversal undone."""
    deaths: dict[int, list[tuple[datetime, int]]] = {}
    for pk, action, _, data, at in rows:
        if action == "unit.kill" and data.get("unit"):
            deaths.setdefault(data["unit"], []).append((at, pk))
    undone = set()
    for reversed_at, changed in Reversible.objects.filter(
            campaign=records.campaign, kind=Reversible.Kind.BATTLE, reversed_at__isnull=False).values_list(
            "reversed_at", "changed"):
        for row in changed:
            if reversed_at and row["model"] == "campaign.unit" and row["after"].get("state") == Unit.State.KILLED:
                before = [death for death in deaths.get(row["pk"], ()) if death[0] <= reversed_at]
                if before:
                    undone.add(max(before)[1])
    return undone


def _funding(records: _Records) -> list[ChronicleEntry]:
    """Lunari from one commander to another (funding requests paid) and from the game masters (grants, fines)."""
    entries = []
    paid = records.window(FundingRequest.objects.filter(campaign=records.campaign,
                                                        status=FundingRequest.Status.ACCEPTED), "decided_at")
    for pk, requester, funder, amount, reason, at in paid.values_list(
            "pk", "requester_id", "funder_id", "amount", "reason", "decided_at").order_by():
        words = f"{records.name(funder)} paid {records.name(requester)} {amount} lunari, as asked: {reason}."
        entries.append(ChronicleEntry(key=f"funding:{pk}", kind="funding", at=at,
                                      commanders=frozenset((requester, funder)),
                                      full=records.commander_told(words, requester)))
    legs = records.window(LedgerEntry.objects.filter(
        transaction__campaign=records.campaign, account__commander__isnull=False,
        transaction__kind__in=(LedgerTransaction.Kind.GRANT, LedgerTransaction.Kind.FINE)), "transaction__at")
    for pk, txn, kind, reason, at, commander_id, amount in legs.values_list(
            "pk", "transaction_id", "transaction__kind", "transaction__reason", "transaction__at",
            "account__commander_id", "amount").order_by():
        verb = "granted" if kind == LedgerTransaction.Kind.GRANT else "fined"
        words = f"The game masters {verb} {records.name(commander_id)} {abs(amount)} lunari: {reason}."
        entries.append(ChronicleEntry(key=f"ledger:{txn}:{pk}", kind="funding", at=at,
                                      commanders=frozenset({commander_id}),
                                      full=records.commander_told(words, commander_id)))
    return entries


def _corrections(records: _Records) -> list[ChronicleEntry]:
    """Records a game master reversed (campaign.campaigns.reversals), with their reason. A Battle's reversal is
    as public as the Battle and its reason is told to its two commanders; a reversed hour or Day is public
    without the reason; an outcome recorded on the map names armies the fog may hide, so only GMs read it."""
    rows = list(records.window(Reversible.objects.filter(campaign=records.campaign, reversed_at__isnull=False),
                               "reversed_at").values_list("pk", "kind", "target_id", "label", "reason",
                                                          "reversed_at").order_by())
    battles = [target for _, kind, target, *_ in rows if kind == Reversible.Kind.BATTLE]
    sides = {pk: (attacker, defender) for pk, attacker, defender in Battle.objects.filter(
        pk__in=battles).values_list("pk", "attacker_id", "defender_id")} if battles else {}
    entries = []
    for pk, kind, target, label, reason, at in rows:
        is_battle = kind == Reversible.Kind.BATTLE
        link, link_label = (records.url("battle-detail", target), "Battle") if is_battle else ("", "")
        public = None if kind == Reversible.Kind.OUTCOME else Told(f"A game master reversed {label}.", link, link_label)
        entries.append(ChronicleEntry(key=f"reversal:{pk}", kind="correction", at=at, public=public,
                                      full=Told(f"A game master reversed {label}: {reason}.", link, link_label),
                                      commanders=frozenset(sides.get(target, ()))))
    return entries


_READERS: list[tuple[Callable[[_Records], list[ChronicleEntry]], set[str]]] = [
    (_battles, {"battle"}), (_encounters, {"encounter"}), (_map_hours, {"capture", "arrival"}),
    (_units, {"recruit", "training", "death"}), (_funding, {"funding"}), (_corrections, {"correction"}),
]
