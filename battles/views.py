"""Battle pages: the list, starting one (with its odds), the live table (the match's own table fragment,
polled by htmx), logging a table Battle, confirming, handing a seat to an AI, the replay, the printable battle
sheet, Skirmish odds."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from battles import selectors, services, sheets
from battles.api import SkirmishOddsSerializer
from battles.engine.odds import ROLES as SKIRMISH_ROLES
from battles.engine.state import TRAITS
from battles.forms import BattleLogForm, BattleStartForm
from battles.models import Battle
from campaign.campaigns.permissions import Action, NotAllowed, can
from campaign.campaigns.reversals import reversal_offer, reversals_done
from campaign.campaigns.views import campaign_membership
from campaign.live.topics import member_topics
from campaign.map import selectors as map_selectors
from campaign.models import Army, DueBattle, Location, Reversible
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown
from cardgames import selectors as match_selectors
from cardgames import services as match_services
from cardgames.models import AIPolicy
from cardgames.replay_pages import replay_context


def _battle(request: HttpRequest, slug: str, battle_id: int):
    campaign, membership = campaign_membership(request, slug)
    battle = get_object_or_404(selectors.battles_visible_to(membership=membership), pk=battle_id)
    return campaign, membership, battle


def _own_army_ids(membership) -> set[int]:
    return set(Army.objects.filter(campaign_id=membership.campaign_id, commander__player_id=membership.user_id)
               .values_list("pk", flat=True))


UNSEEN_ARMY = "An enemy army (unseen until the Battle begins)"


def seen_army_ids(membership) -> set[int]:
    return set(map_selectors.armies_visible_to(membership=membership).values_list("pk", flat=True))


def _army_label(seen: set[int]):
    """An army as this member may name it: by name and commander if fog of war lets them see it."""
    return lambda army: f"{army.name} ({army.commander.name})" if army.pk in seen else UNSEEN_ARMY


def _due_battles(campaign, membership) -> list[DueBattle]:
    """Battles due on the map that this member may start: all for a GM, their own armies' for a player."""
    rows = DueBattle.objects.filter(event__campaign=campaign, status=DueBattle.Status.DUE).select_related(
        "first__commander", "second__commander", "location")
    if can(membership, Action.ACT_FOR_ANY):
        return list(rows)
    own = _own_army_ids(membership)
    return [row for row in rows if own & {row.first_id, row.second_id}]


@login_required
def battle_list(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    return render(request, "battles/battle_list.html", {
        "campaign": campaign, "battles": selectors.battles_visible_to(membership=membership)[:100],
        "live_topics": member_topics(membership),
        "due_battles": _due_battles(campaign, membership), "is_gm": can(membership, Action.ACT_FOR_ANY)})


def _start_form(campaign, membership, due: DueBattle | None, data=None, initial=None) -> BattleStartForm:
    """A GM picks among every army; a Battle due has its two armies (a player sees the enemy unnamed unless
    revealed, and designates only their own units), so only their commanders' picks are asked."""
    seen = seen_army_ids(membership)
    armies = Army.objects.filter(campaign=campaign).select_related("commander").order_by("commander__name", "name")
    if due is not None:
        armies = armies.filter(pk__in=[due.first_id, due.second_id])
    designating = armies if membership.is_gm else armies.filter(pk__in=_own_army_ids(membership))
    when = selectors.battle_event_day(campaign=campaign)
    form = BattleStartForm(data, initial=initial, armies=armies, designating=designating, day=when and when[1],
                           locations=Location.objects.filter(map__campaign=campaign))
    for name in ("attacker_army", "defender_army"):
        form.fields[name].label_from_instance = _army_label(seen)
    return form


@login_required
def battle_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a Battle: a GM picks any two armies; a commander starts a Battle due for one of their armies.
    The odds of the Battle load onto the page before anyone commits."""
    campaign, membership = campaign_membership(request, slug)
    is_gm = can(membership, Action.ACT_FOR_ANY)
    due = None
    due_id = parse_id(request.GET.get("due") or request.POST.get("due"))
    if due_id is not None:
        due = next((row for row in _due_battles(campaign, membership) if row.pk == due_id), None)
        if due is None:
            raise Http404("No such Battle due.")
    elif not is_gm:
        raise NotAllowed("A commander starts a Battle that came due on the map; ask a game master for any other.")
    initial = {"attacker_army": due.first_id, "defender_army": due.second_id,
               "location": due.location_id} if due else {k: request.GET.get(k) for k in ("attacker_army",
                                                                                         "defender_army", "location")}
    form = _start_form(campaign, membership, due, request.POST or None, initial=initial)
    if due is not None:
        for name in ("attacker_army", "defender_army", "location"):
            form.fields[name].disabled = True
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        attacker, defender = data["attacker_army"], data["defender_army"]
        with refusal_shown(request):
            battle = services.battle_start(
                attacker_army=attacker, defender_army=defender, location=data["location"], due_battle=due,
                mode=data["mode"], npc_seat=data["npc_seat"], actor=request.user,
                choices=form.choices_for(attacker.commander, defender.commander))
            messages.success(request, f"The Battle has begun: {battle.attacker} against {battle.defender}.")
            return redirect("battle-detail", slug=slug, battle_id=battle.pk)
    odds_query, sides = "", []
    if due is not None:
        label = _army_label(seen_army_ids(membership))
        sides = [label(due.first), label(due.second)]
    if initial.get("attacker_army") and initial.get("defender_army") and UNSEEN_ARMY not in sides:
        odds_query = "&".join(f"{k}={v}" for k, v in initial.items() if v)
    return render(request, "battles/battle_start.html", {"campaign": campaign, "form": form, "due": due,
                                                         "due_sides": sides, "odds_query": odds_query,
                                                         "is_gm": is_gm})


@login_required
def battle_odds(request: HttpRequest, slug: str) -> HttpResponse:
    """The Monte Carlo odds of a Battle between two armies as they stand (a fragment the start page loads).
    A player may ask only about a Battle one of their own armies fights, against an army they may see."""
    campaign, membership = campaign_membership(request, slug)
    try:
        ids = [int(request.GET[k]) for k in ("attacker_army", "defender_army")]
    except (KeyError, ValueError):
        return HttpResponse("Pick both armies to see the odds.")
    armies = {a.pk: a for a in map_selectors.armies_visible_to(membership=membership).filter(pk__in=ids)
              .select_related("commander")}
    if len(armies) != 2:
        raise Http404("No such army.")
    if not can(membership, Action.ACT_FOR_ANY) and not _own_army_ids(membership) & set(ids):
        raise NotAllowed("You can see the odds of Battles your own armies fight.")
    location = Location.objects.filter(map__campaign=campaign, pk=request.GET.get("location") or 0).first()
    when = selectors.battle_event_day(campaign=campaign)
    if when is None:
        return HttpResponse("No Day is open: the odds follow the armies as they stand on an open Day.")
    try:
        config = selectors.battle_config_for(attacker_army=armies[ids[0]], defender_army=armies[ids[1]], day=when[1],
                                             location=location)
        odds, how = selectors.battle_odds_for(config=config)
    except ValidationError as exc:
        return HttpResponse(" ".join(exc.messages))
    sides = [{"name": c["name"], "army": c["army"], "p": odds.win_probability[s],
              "low": odds.win_interval[s][0], "high": odds.win_interval[s][1],
              "kills": odds.expected_kills[s], "morale": odds.expected_morale[s]}
             for s, c in enumerate(config["commanders"])]
    return render(request, "battles/_battle_odds.html", {"sides": sides, "how": how, "odds": odds})


def _watch_seat(request: HttpRequest, battle: Battle, is_gm: bool) -> int | None:
    """My seat at the match; a GM without one may watch either side with ?seat=N."""
    seat = match_selectors.match_seat_for(match=battle.match, user=request.user)
    watch = request.GET.get("seat", "")
    if seat is None and is_gm and watch in ("0", "1"):
        return int(watch)
    return seat


@login_required
def battle_detail(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    campaign, membership, battle = _battle(request, slug, battle_id)
    is_gm = can(membership, Action.ACT_FOR_ANY)
    context = {"campaign": campaign, "battle": battle, "is_gm": is_gm, "roles": sorted(SKIRMISH_ROLES),
               "traits": TRAITS, "ai_policies": [(v, label) for v, label in AIPolicy.choices if v],
               "my_seats": selectors.battle_seats_of(battle=battle, membership=membership)}
    if battle.match_id:
        match = battle.match
        seat = _watch_seat(request, battle, is_gm)
        seats = list(match.seats.all())
        own_seat = match_selectors.match_seat_for(match=match, user=request.user)
        context.update(match=match, seat=seat, seats=seats, table=match_selectors.match_table(match=match, seat=seat),
                       handable=[s for s in seats if not s.ai and (is_gm or s.seat == own_seat)]
                       if match.status == match.Status.ACTIVE else [])
    context["may_enter"] = battle.mode == Battle.Mode.LOGGED and battle.status in (
        Battle.Status.DUE, Battle.Status.FINISHED) and (is_gm or bool(context["my_seats"]))
    context["may_confirm"] = battle.mode == Battle.Mode.LOGGED and battle.status == Battle.Status.FINISHED and (
        is_gm or (bool(context["my_seats"]) and battle.entered_by_id != request.user.pk))
    context["result_rows"] = _result_rows(battle)
    context["reversal"] = reversal_offer(kind=Reversible.Kind.BATTLE, target_id=battle.pk, membership=membership)
    context["reversed"] = reversals_done(kind=Reversible.Kind.BATTLE, target_id=battle.pk)
    context["may_print"] = battle.is_open and bool(sheets.battle_sheet_unit_seats(battle=battle,
                                                                                  membership=membership))
    return render(request, "battles/battle_detail.html", context)


def _result_rows(battle: Battle) -> list[dict]:
    """Per commander: the result in words (unit names, not ids)."""
    if not battle.result:
        return []
    rows = []
    for seat, c in enumerate(battle.config["commanders"]):
        names = {u["id"]: u["name"] for u in c["units"]}
        names.update({-1: "Alchemy Lab", -2: "Mediating Chaplain"})
        rows.append({"name": c["name"], "army": c["army"], "won": battle.result["winner"] == seat,
                     "routed": battle.result.get("routed") == seat, "morale": battle.result["morale"][seat],
                     "influence": battle.result["influence"][seat], "kills": battle.result["kills"][seat],
                     **{pile: [names.get(u, f"unit {u}") for u in battle.result[pile][seat]]
                        for pile in ("killed", "disabled", "exhausted")}})
    return rows


@login_required
def battle_log(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """Enter the result of a Battle played at a real table."""
    campaign, _, battle = _battle(request, slug, battle_id)
    form = BattleLogForm(request.POST or None, battle=battle)
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_log_result(battle=battle, actor=request.user, **form.entry())
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            battle.refresh_from_db()
            messages.success(request, "The result is applied to the campaign." if battle.status == Battle.Status.APPLIED
                             else "The result is entered: the other commander or a game master confirms it.")
            return redirect("battle-detail", slug=slug, battle_id=battle.pk)
    return render(request, "battles/battle_log.html", {"campaign": campaign, "battle": battle, "form": form,
                                                       "seats": [(c, form.seat_fields(s)) for s, c in
                                                                 enumerate(battle.config["commanders"])]})


@login_required
def battle_sheet(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The printable sheet for the table. A table Battle's sheet has boxes for the result, written by hand, and
    its QR code opens the result form; a live Battle's result is the engine's, so its code opens the Battle's
    page. Absolute, because a phone's camera reads it."""
    campaign, membership, battle = _battle(request, slug, battle_id)
    unit_seats = sheets.battle_sheet_unit_seats(battle=battle, membership=membership)
    if not unit_seats:
        raise Http404("Only the two commanders and a game master print a Battle's sheet.")
    by_hand = battle.mode == Battle.Mode.LOGGED
    qr_url = request.build_absolute_uri(reverse("battle-log" if by_hand else "battle-detail",
                                                args=[campaign.slug, battle.pk]))
    return render(request, "battles/battle_sheet.html", {
        "campaign": campaign, "battle": battle, "by_hand": by_hand, "piles": sheets.PILES, "qr_url": qr_url,
        "qr_svg": sheets.battle_sheet_qr_svg(url=qr_url),
        "sides": sheets.battle_sheet_sides(battle=battle, unit_seats=unit_seats)})


def _post_service(request: HttpRequest, slug: str, battle: Battle, call, success: str) -> HttpResponse:
    with refusal_shown(request, ValidationError):
        call()
        messages.success(request, success)
    return redirect("battle-detail", slug=slug, battle_id=battle.pk)


@login_required
@require_POST
def battle_confirm(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    _, _, battle = _battle(request, slug, battle_id)
    return _post_service(request, slug, battle, lambda: services.battle_confirm_result(battle=battle,
                                                                                       actor=request.user),
                         "Confirmed: the result is applied to the campaign.")


@login_required
@require_POST
def battle_cancel(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    _, _, battle = _battle(request, slug, battle_id)
    return _post_service(request, slug, battle, lambda: services.battle_cancel(battle=battle, actor=request.user),
                         "The Battle is cancelled: nothing of it reaches the campaign.")


@login_required
@require_POST
def battle_hand_to_ai(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """A commander away from the table lets an AI play their side (a GM may do it for any side)."""
    _, _, battle = _battle(request, slug, battle_id)
    if battle.match_id is None:
        raise Http404("A table Battle has no seats to hand over.")
    seat = parse_id(request.POST.get("seat"))
    if seat is None:
        messages.error(request, "Choose which side to hand over.")
        return redirect("battle-detail", slug=slug, battle_id=battle.pk)
    return _post_service(
        request, slug, battle,
        lambda: match_services.match_seat_hand_to_ai(match=battle.match, seat=seat,
                                                     policy=request.POST.get("policy", ""), actor=request.user),
        "An AI plays that side from now on.")


@gzip_page  # every step rides along (up to ~1.7 MB of HTML); Django masks the CSRF token per response (BREACH)
@login_required
def battle_replay(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """Step forward and back through a finished live Battle (every step on the page, as for a match's
    replay); a table Battle shows what was entered."""
    campaign, membership, battle = _battle(request, slug, battle_id)
    context = {"campaign": campaign, "battle": battle, "result_rows": _result_rows(battle)}
    if battle.match_id and battle.status in (Battle.Status.FINISHED, Battle.Status.APPLIED):
        match = battle.match
        seat = _watch_seat(request, battle, can(membership, Action.ACT_FOR_ANY))
        context.update(seat=seat, match=match, seats=list(match.seats.all()),
                       **replay_context(match=match, seat=seat, step=request.GET.get("step", "0")))
    elif battle.status not in (Battle.Status.FINISHED, Battle.Status.APPLIED):
        messages.error(request, "A Battle can be replayed once it is over.")
        return redirect("battle-detail", slug=slug, battle_id=battle.pk)
    return render(request, "battles/battle_replay.html", context)


@login_required
@require_POST
def skirmish_odds(request: HttpRequest, slug: str) -> HttpResponse:
    """The exact odds of one Skirmish for the small form on a Battle page (the API's serializer checks it)."""
    campaign_membership(request, slug)
    post = request.POST
    data = {side: {"strength": post.get(f"{side}_strength", ""), "role": post.get(f"{side}_role", ""),
                   "traits": post.getlist(f"{side}_traits"),
                   "card_bonuses": post.get(f"{side}_cards", "").replace(",", " ").split(),
                   "power_bonus": post.get(f"{side}_power") or 0}
            for side in ("offense", "defense")}
    body = SkirmishOddsSerializer(data=data)
    if not body.is_valid():
        errors = [f"{side.title()} {field.replace('_', ' ')}: {' '.join(_flat(msgs))}"
                  for side, fields in body.errors.items() for field, msgs in fields.items()]
        return render(request, "battles/_skirmish_odds.html", {"errors": errors})
    return render(request, "battles/_skirmish_odds.html", {"odds": body.odds()})


def _flat(messages_) -> list[str]:
    """DRF error messages, nested for list items, as flat strings."""
    if isinstance(messages_, dict):
        return [m for value in messages_.values() for m in _flat(value)]
    if isinstance(messages_, list):
        return [m for value in messages_ for m in _flat(value)]
    return [str(messages_)]
