"""The audit trail in words: each recorded action as a sentence ("gm (game master) granted Amira 50 lunari:
Prize"), who did it (a player, a game master, the event clock, a finished game), and the filters the audit page
offers (kind, person, commander, Day). The rows stay as they were written; only their reading changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from campaign.models import AuditEntry, Campaign, Commander, Day, Membership

PHRASES = {
    "admin.campaign.save": "changed the campaign in the admin",
    "admin.event.save": "changed the Event {target} in the admin",
    "army.create": "created the army {target}",
    "army.disband": "disbanded {target}",
    "army.form": "formed the army {target}",
    "army.led": "marked {target} as led today",
    "army.merge": "merged an army into {target}",
    "army.order": "ordered {target} to move",
    "army.order.cancel": "cancelled the order of {target}",
    "army.place": "placed {target} on the map",
    "army.split": "split an army off {target}",
    "army.withdraw": "took {target} off the map",
    "arrears.forgive": "forgave a debt: {target}",
    "arrears.settle": "settled a debt: {target}",
    "battle.apply": "applied the result of {target} to the campaign",
    "battle.cancel": "called off {target}",
    "battle.claim": "claimed {target} to resolve it",
    "battle.release": "released the claim on {target}",
    "battle.log": "entered the result of {target} played at a table",
    "battle.outcome.map": "recorded on the map how {target} ended",
    "battle.outcome.reverse": "reversed {target} on the map: {reason}",
    "battle.reverse": "reversed the applied result of {target}: {reason}",
    "battle.start": "started {target}",
    "campaign.archive": "archived the campaign (read only, off the home page)",
    "campaign.create": "created the campaign",
    "campaign.export": "exported the campaign ({rows} rows, {files} files)",
    "campaign.import": "imported the campaign from an export of {exported_at} ({rows} rows, {files} files)",
    "campaign.new_season": "started a new season from this campaign: {target}",
    "campaign.season_of": "began as a new season of {target}",
    "campaign.unarchive": "brought the campaign back from the archive",
    "campaign.update": "changed the campaign's settings ({fields})",
    "catalogue.delete": "deleted the unit type {target}",
    "catalogue.load": "loaded unit types into the catalogue",
    "challenge.create": "sent a challenge: {target}",
    "challenge.accepted": "accepted a challenge: {target}",
    "challenge.declined": "declined a challenge: {target}",
    "challenge.withdrawn": "withdrew a challenge: {target}",
    "clock.advance": "advanced {target} to hour {hour}",
    "clock.pause": "paused the clock of {target}",
    "clock.resume": "restarted the clock of {target}",
    "clock.reverse": "reversed {target}, so the clock stands before it again: {reason}",
    "clock.start": "started the clock of {target}",
    "commander.create": "created the commander {target}",
    "commander.dervish": "chose {choice} as {target}'s Dervish bonus for the Day",
    "commander.fair_escape": "recorded Fair Escape for {target}",
    "commander.in_battle": "marked {target} in or out of a Battle",
    "commander.retire": "retired {target} from play",
    "commander.return": "brought {target} back into play",
    "commander.update": "changed {target}'s sheet ({fields})",
    "day.close": "closed {target}: {bills} upkeep bills, {upkeep_paid} lunari paid, {arrears} in arrears",
    "day.reopen": "reopened {target}, reversing its upkeep, arrears and Morale refresh: {reason}",
    "event.create": "created the Event {target}",
    "event.delete": "deleted the Event {target}",
    "event.update": "changed the Event {target}",
    "funding.request": "asked for lunari: {target}",
    "funding.accepted": "paid a funding request: {target}",
    "funding.declined": "declined a funding request: {target}",
    "funding.withdrawn": "withdrew a funding request: {target}",
    "invitation.create": "made an invitation link ({target})",
    "invitation.join": "joined through an invitation",
    "invitation.revoke": "revoked an invitation link ({target})",
    "item.add": "gave the item card {target}",
    "item.destroy": "destroyed the item card {target}",
    "item.give": "handed on the item card {target}",
    "ledger.bank_stake": "settled a stake against the bank with {target}: {amount} lunari",
    "ledger.fine": "fined {target} {amount} lunari: {reason}",
    "ledger.grant": "granted {target} {amount} lunari: {reason}",
    "ledger.reverse": "reversed {target}: {reason}",
    "map.base.create": "placed the Base {target}",
    "map.base.delete": "removed the Base {target}",
    "map.base.restore": "restored the Morale bonus of {target}",
    "map.base.spend": "spent the Morale bonus of {target}",
    "map.base.update": "changed the Base {target}",
    "map.create": "created the map",
    "map.location.create": "placed the location {target}",
    "map.location.delete": "removed the location {target}",
    "map.location.holder": "handed over {target}",
    "map.location.update": "changed the location {target}",
    "map.picture": "uploaded the map picture",
    "map.reveal": "revealed an army: {target}",
    "map.scale": "set the map's scale",
    "map.terrain.create": "drew the terrain {target}",
    "map.terrain.delete": "removed the terrain {target}",
    "match.cancel": "called off the match {target}",
    "match.claim": "claimed the match {target} to resolve it",
    "match.create": "started the match {target}",
    "match.release": "released the claim on the match {target}",
    "match.seat_to_ai": "handed a seat of {target} to an AI",
    "match.stakes": "paid out the stakes of {target}",
    "membership.add": "added {target} to the campaign",
    "membership.remove": "removed {target} from the campaign",
    "membership.role": "changed the role of {target}",
    "morale.buy": "bought {points} Morale for {target}, for {price} lunari",
    "quest.record": "recorded a quest done by {character}: {target}",
    "quest.unrecord": "took back a quest done by {character}: {target}",
    "recruit_offer.remove": "took {target} off the recruit list",
    "recruit_offer.set": "put {target} on the recruit list",
    "unit.assign": "moved the unit {target}",
    "unit.donate_wages": "gave the wages of {target}, Killed, to {to}",
    "unit.kill": "recorded {target} as Killed",
    "unit.lend": "lent the unit {target}",
    "unit.recall": "took back the lent unit {target}",
    "unit.name": "named the retinue {target}",
    "unit.recruit": "recruited {target} for {price} lunari",
    "unit.train": "trained {target} to Strength {strength}, for {paid} lunari",
    "unit_type.artwork": "gave {target} new artwork",
    "upkeep.pledge_morale": "pledged {points} Morale against {target}'s upkeep",
}

NOBODY = {"clock": "The event clock", "day": "The event clock", "army": "The event clock",
          "battle": "The finished game", "match": "The finished game"}
"""Who acted when no person did, by kind of action; any other is Muster itself (a job or the demo loader)."""


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def kind_of(action: str) -> str:
    return action.split(".")[0]


def entry_sentence(entry: AuditEntry, roles: dict[int, str]) -> str:
    """The entry as one sentence, its doer first."""
    data: dict[str, Any] = {k: (", ".join(map(str, v)) if isinstance(v, list) else v)
                            for k, v in (entry.data or {}).items()}
    phrase = PHRASES.get(entry.action, entry.action.replace(".", " ").replace("_", " ") + " {target}")
    said = phrase.format_map(_Blank(data, target=entry.target or "")).strip()
    return f"{doer(entry, roles)} {said}."


def doer(entry: AuditEntry, roles: dict[int, str]) -> str:
    if entry.actor_id is None:
        return NOBODY.get(kind_of(entry.action), "Muster")
    role = roles.get(entry.actor_id)
    return f"{entry.actor.get_username()} ({role})" if role else entry.actor.get_username()


@dataclass(frozen=True)
class AuditFilters:
    kind: str = ""
    who: int | None = None  # a user id, or 0: nobody (the clock, a game, Muster)
    commander: Commander | None = None
    day: Day | None = None


def audit_entries(*, campaign: Campaign, filters: AuditFilters) -> QuerySet[AuditEntry]:
    entries = campaign.audit_entries.select_related("actor")
    if filters.kind:
        entries = entries.filter(Q(action=filters.kind) | Q(action__startswith=f"{filters.kind}."))
    if filters.who == 0:
        entries = entries.filter(actor__isnull=True)
    elif filters.who is not None:
        entries = entries.filter(actor_id=filters.who)
    if filters.commander is not None:
        commander = filters.commander
        entries = entries.filter(Q(target=commander.name) | Q(target__startswith=f"{commander.name} ")
                                 | Q(data__commander=commander.pk))
    if filters.day is not None:
        entries = entries.filter(at__gte=filters.day.opened_at)
        if filters.day.closed_at is not None:
            entries = entries.filter(at__lte=filters.day.closed_at)
    return entries


def role_words(role: str) -> str:
    """A member's role in words ('game master'), as the audit trail and the ledger name who acted."""
    return str(dict(Membership._meta.get_field("role").choices).get(role, role)).lower()


def member_roles(campaign: Campaign) -> dict[int, str]:
    """Each member's role in words, by user id."""
    return {user_id: role_words(role) for user_id, role in campaign.memberships.values_list("user_id", "role")}


def audit_kinds() -> list[str]:
    return sorted({kind_of(action) for action in PHRASES})
