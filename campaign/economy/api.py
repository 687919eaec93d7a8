"""The economy in the API: commanders and their purses, units, the ledger, upkeep, Morale, funding requests,
and the game masters' grants, fines, arrears and closing a Day. Thin: parse, check, call a service.

A player sees their own commanders (and what touches them); a GM sees every commander of their campaigns.
Anything else is a 404. A role refusal is a 403 with the sentence; bad input a 400 with field errors.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, membership_for, require
from campaign.economy import donations, ledger, quests, selectors, services, upkeep
from campaign.economy import funding as funding_services
from campaign.economy.rules import upkeep_bill
from campaign.economy.serializers import (
    ArrearsForgiveSerializer,
    ArrearsSerializer,
    ArrearsSettleSerializer,
    CommanderSerializer,
    CommanderWriteSerializer,
    DayCloseSerializer,
    DonateWagesSerializer,
    FairEscapeSerializer,
    FundingRequestSerializer,
    FundingResponseSerializer,
    LedgerEntrySerializer,
    LedgerPostedSerializer,
    LedgerReverseSerializer,
    LunariSerializer,
    MoraleBuySerializer,
    OtherCommanderSerializer,
    QuestCompletionSerializer,
    QuestRecordSerializer,
    RecruitSerializer,
    RetinueNameSerializer,
    RetireSerializer,
    TrainingSerializer,
    TrainSerializer,
    UnitSerializer,
    UpkeepDaySerializer,
    UpkeepForecastSerializer,
    UpkeepPledgeSerializer,
)
from campaign.map import lending
from campaign.models import (
    Commander,
    Day,
    FundingRequest,
    Item,
    LedgerTransaction,
    Unit,
    UpkeepArrears,
)
from campaign.web.numbers import parse_count, parse_id

LEDGER_LIMIT, LEDGER_MAX = 100, 500


def _require_gm(user, campaign_id: int, what: Action = Action.ACT_FOR_ANY) -> None:
    require(membership_for(user=user, campaign=campaign_id), what)




def _forecast_data(commander_id: int, day: Day | None, result, pledged: int) -> dict:
    return {"commander": commander_id, "day": day.pk if day else None, "gross": result.gross,
            "morale_pledged": pledged, "morale_spent": result.morale_spent, "morale_offset": result.morale_offset,
            "total": result.total, "lines": result.lines}


def _commander_forecast(commander: Commander, day: Day | None) -> dict:
    if day is None:
        return _forecast_data(commander.pk, None, upkeep_bill(()), 0)
    return _forecast_data(commander.pk, day, selectors.upkeep_forecast(commander=commander, day=day),
                          selectors.upkeep_pledges(day=day, commanders=[commander]).get(commander.pk, 0))


def _payers(campaign_id: int) -> QuerySet[Commander]:
    """Any commander of the campaign parses as a payer; the service refuses one the person may not act for (403)."""
    return Commander.objects.filter(campaign_id=campaign_id)


def _valid(serializer_class, request, **context):
    body = serializer_class(data=request.data, context={"request": request, **context})
    body.is_valid(raise_exception=True)
    return body


# --- viewsets --------------------------------------------------------------------------------------------


class CampaignFilterMixin:
    """``?campaign=<id>`` (or the filter named) narrows a list; ids that are not mine match nothing."""

    filter_param = "campaign"

    def filtered(self, queryset):
        value = parse_id(self.request.query_params.get(self.filter_param))
        return queryset if value is None else queryset.filter(**{f"{self.filter_param}_id": value})


class CommanderViewSet(CampaignFilterMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin,
                       viewsets.ReadOnlyModelViewSet):
    """My commanders (a GM: every commander of their campaigns), each with its purse balance (``?campaign=``).
    A game master creates one (POST) and changes its sheet or its player (PATCH)."""

    serializer_class = CommanderSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    @extend_schema(request=CommanderWriteSerializer, responses={201: CommanderSerializer})
    def create(self, request, *args, **kwargs):
        data = _valid(CommanderWriteSerializer, request).validated_data
        commander = services.commander_create(actor=request.user, **data)
        return Response(CommanderSerializer(commander).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CommanderWriteSerializer, responses={200: CommanderSerializer})
    def partial_update(self, request, *args, **kwargs):
        commander = self.get_object()
        body = CommanderWriteSerializer(data=request.data, partial=True, context={"request": request})
        body.is_valid(raise_exception=True)
        changes = {k: v for k, v in body.validated_data.items() if k != "campaign"}
        commander = services.commander_update(commander=commander, actor=request.user, **changes)
        return Response(CommanderSerializer(commander).data)

    @extend_schema(request=RetireSerializer, responses={200: CommanderSerializer})
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        """A game master retires the commander from play (kept on record) or brings them back."""
        retired = _valid(RetireSerializer, request).validated_data["retired"]
        commander = services.commander_retire(commander=self.get_object(), actor=request.user, retired=retired)
        return Response(CommanderSerializer(commander).data)

    @extend_schema(request=LedgerReverseSerializer, responses={200: LedgerPostedSerializer})
    @action(detail=True, methods=["post"])
    def reverse(self, request, pk=None):
        """A game master reverses one of this commander's ledger transactions, with a reason: the opposite
        entries are posted, pointing at it; nothing is edited."""
        commander = self.get_object()
        _require_gm(request.user, commander.campaign_id)
        data = _valid(LedgerReverseSerializer, request).validated_data
        original = LedgerTransaction.objects.filter(pk=data["transaction"], entries__account__commander=commander
                                                    ).distinct().first()
        if original is None:
            raise NotFound("No such transaction in this commander's ledger.")
        txn = ledger.ledger_reverse(transaction_to_reverse=original, reason=data["reason"], actor=request.user)
        return Response(LedgerPostedSerializer({"transaction": txn.pk, "purse_balance":
                                                ledger.ledger_purse_balance(commander=commander)}).data)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Commander.objects.none()
        return (self.filtered(selectors.commanders_visible_to(user=self.request.user)).select_related("purse", "player")
                .order_by("campaign_id", "name"))

    @extend_schema(responses={200: LedgerEntrySerializer(many=True)}, parameters=[
        OpenApiParameter("limit", int, description=f"How many entries, newest first (default {LEDGER_LIMIT}, "
                                                   f"at most {LEDGER_MAX}).")])
    @action(detail=True, methods=["get"], pagination_class=None)
    def ledger(self, request, pk=None):
        """The purse's history, newest first (``?limit=``, at most 500), each entry with the balance after it."""
        commander = self.get_object()
        limit = parse_count(request.query_params.get("limit"), default=LEDGER_LIMIT, maximum=LEDGER_MAX)
        balance, rows = ledger.ledger_purse_balance(commander=commander), []
        for entry in selectors.commander_ledger(commander=commander)[:limit]:
            txn = entry.transaction
            rows.append({"at": txn.at, "kind": txn.kind, "reason": txn.reason, "amount": entry.amount,
                         "balance_after": balance, "actor": txn.actor.get_username() if txn.actor else None})
            balance -= entry.amount
        return Response(LedgerEntrySerializer(rows, many=True).data)

    @extend_schema(responses={200: UpkeepForecastSerializer})
    @action(detail=True, methods=["get"])
    def forecast(self, request, pk=None):
        """What closing the campaign's open Day now would charge this commander."""
        commander = self.get_object()
        _, day = campaigns_selectors.event_and_day_today(campaign=commander.campaign)
        return Response(UpkeepForecastSerializer(_commander_forecast(commander, day)).data)

    @extend_schema(request=UpkeepPledgeSerializer, responses={200: UpkeepForecastSerializer})
    @action(detail=True, methods=["post"])
    def pledge(self, request, pk=None):
        """Pledge Morale to the open Day's upkeep (at most the Morale the commander has); answers the forecast,
        which shows what the pledge saves."""
        commander = self.get_object()
        _, day = campaigns_selectors.event_and_day_today(campaign=commander.campaign)
        if day is None:
            raise ValidationError("No Day is open: pledge Morale to upkeep during an Event.")
        points = _valid(UpkeepPledgeSerializer, request).validated_data["points"]
        upkeep.upkeep_pledge_morale(commander=commander, day=day, points=points, actor=request.user)
        return Response(UpkeepForecastSerializer(_commander_forecast(commander, day)).data)

    @extend_schema(request=RecruitSerializer, responses={201: UnitSerializer})
    @action(detail=True, methods=["post"])
    def recruit(self, request, pk=None):
        """Recruit from the current Event's recruit list into the reserve; `paid_by` (default: the commander) pays."""
        commander = self.get_object()
        event, _ = campaigns_selectors.event_and_day_today(campaign=commander.campaign)
        if event is None:
            raise ValidationError("No Event is on: recruit at a running Event.")
        body = RecruitSerializer(data=request.data)
        body.fields["offer"].queryset = selectors.event_recruit_offers(event=event)
        body.fields["paid_by"].queryset = _payers(commander.campaign_id)
        body.is_valid(raise_exception=True)
        unit = services.unit_recruit(commander=commander, unit_type=body.validated_data["offer"].unit_type,
                                     event=event, paid_by=body.validated_data.get("paid_by", commander),
                                     actor=request.user)
        return Response(UnitSerializer(unit).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=QuestRecordSerializer, responses={201: QuestCompletionSerializer})
    @action(detail=True, methods=["post"])
    def quest(self, request, pk=None):
        """A game master records that a character did a quest offer's quest for this commander: they may then
        recruit one unit of it at the quest price (`recruit`)."""
        commander = self.get_object()
        event, _ = campaigns_selectors.event_and_day_today(campaign=commander.campaign)
        if event is None:
            raise ValidationError("No Event is on: quests are done at a running Event.")
        body = QuestRecordSerializer(data=request.data)
        body.fields["offer"].queryset = selectors.event_recruit_offers(event=event)
        body.is_valid(raise_exception=True)
        done = quests.quest_record(commander=commander, actor=request.user, **body.validated_data)
        return Response(QuestCompletionSerializer(done).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=MoraleBuySerializer, responses={200: CommanderSerializer})
    @action(detail=True, methods=["post"])
    def morale(self, request, pk=None):
        """Buy Morale: once per Day, 5 lunari a point, up to the starting value, never during a Battle."""
        commander = self.get_object()
        _, day = campaigns_selectors.event_and_day_today(campaign=commander.campaign)
        if day is None:
            raise ValidationError("No Day is open: buy Morale during an Event.")
        points = _valid(MoraleBuySerializer, request).validated_data["points"]
        commander = upkeep.morale_buy(commander=commander, day=day, points=points, actor=request.user)
        return Response(CommanderSerializer(commander).data)

    @extend_schema(request=FairEscapeSerializer, responses={200: CommanderSerializer})
    @action(detail=True, methods=["post"], url_path="fair-escape")
    def fair_escape(self, request, pk=None):
        """A player character invokes Fair Escape: 1 Influence, or a retinue unit's -2 Strength instead."""
        commander = self.get_object()
        body = FairEscapeSerializer(data=request.data)
        body.fields["retinue_unit"].queryset = Unit.objects.filter(commander=commander)
        body.is_valid(raise_exception=True)
        commander = services.commander_fair_escape(commander=commander, actor=request.user,
                                                   retinue_unit=body.validated_data.get("retinue_unit"))
        return Response(CommanderSerializer(commander).data)

    def _post_lunari(self, request, post):
        commander = self.get_object()
        _require_gm(request.user, commander.campaign_id)
        body = _valid(LunariSerializer, request)
        txn = post(commander=commander, actor=request.user, **body.validated_data)
        return Response(LedgerPostedSerializer({"transaction": txn.pk, "purse_balance":
                                                ledger.ledger_purse_balance(commander=commander)}).data)

    @extend_schema(request=LunariSerializer, responses={200: LedgerPostedSerializer})
    @action(detail=True, methods=["post"])
    def grant(self, request, pk=None):
        """A game master gives the commander lunari from the bank, with a reason."""
        return self._post_lunari(request, ledger.ledger_grant)

    @extend_schema(request=LunariSerializer, responses={200: LedgerPostedSerializer})
    @action(detail=True, methods=["post"])
    def fine(self, request, pk=None):
        """A game master takes lunari back to the bank, with a reason."""
        return self._post_lunari(request, ledger.ledger_fine)


class UnitViewSet(CampaignFilterMixin, viewsets.ReadOnlyModelViewSet):
    """Units of my commanders and units lent to them (a GM: of every commander), ``?commander=<id>`` (the owner);
    Killed units are left out, except to donate their wages."""

    serializer_class = UnitSerializer
    filter_param = "commander"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Unit.objects.none()
        commanders = selectors.commanders_visible_to(user=self.request.user)
        units = Unit.objects.filter(Q(commander__in=commanders) | Q(lent_to__in=commanders)).distinct()
        if self.action != "donate":
            units = units.exclude(state=Unit.State.KILLED)
        return self.filtered(units.select_related("unit_type")).order_by("commander_id", "id")

    @extend_schema(request=OtherCommanderSerializer, responses={200: UnitSerializer})
    @action(detail=True, methods=["post"])
    def lend(self, request, pk=None):
        """The owner lends the unit to another commander (`to`): it leaves its army, waits in their reserve and
        fights for them without the retinue bonus; its wages stay the owner's."""
        unit = self.get_object()
        to = _valid(OtherCommanderSerializer, request, campaign=unit.campaign_id).validated_data["to"]
        return Response(UnitSerializer(lending.unit_lend(unit=unit, to=to, actor=request.user)).data)

    @extend_schema(request=None, responses={200: UnitSerializer})
    @action(detail=True, methods=["post"])
    def recall(self, request, pk=None):
        """The owner recalls a lent unit, or the borrower returns it, into the owner's reserve."""
        return Response(UnitSerializer(lending.unit_recall(unit=self.get_object(), actor=request.user)).data)

    @extend_schema(request=DonateWagesSerializer, responses={201: LedgerPostedSerializer})
    @action(detail=True, methods=["post"])
    def donate(self, request, pk=None):
        """Donate a Killed unit's wages to a Temple or the surviving relatives, once (a retry answers the first)."""
        unit = self.get_object()
        txn = donations.unit_donate_wages(unit=unit, actor=request.user,
                                          **_valid(DonateWagesSerializer, request).validated_data)
        return Response(LedgerPostedSerializer({"transaction": txn.pk, "purse_balance":
                                                ledger.ledger_purse_balance(commander=unit.commander)}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=TrainSerializer, responses={201: TrainingSerializer})
    @action(detail=True, methods=["post"])
    def train(self, request, pk=None):
        """Train at the current Event: +1 Strength for 10 x the new Strength; `paid_by` (default: the unit's
        commander) pays, and only the payer's weapon cards can be destroyed."""
        unit = self.get_object()
        event, _ = campaigns_selectors.event_and_day_today(campaign=unit.campaign)
        if event is None:
            raise ValidationError("No Event is on: train units at a running Event.")
        body = TrainSerializer(data=request.data)
        body.fields["paid_by"].queryset = _payers(unit.campaign_id)
        body.fields["weapon_items"].child_relation.queryset = Item.objects.filter(
            commander__in=selectors.commanders_visible_to(user=request.user).filter(campaign_id=unit.campaign_id),
            destroyed_at__isnull=True)
        body.is_valid(raise_exception=True)
        payer = body.validated_data.get("paid_by", unit.commander)
        training = services.unit_train(unit=unit, event=event, paid_by=payer, actor=request.user,
                                       weapon_items=body.validated_data["weapon_items"])
        return Response(TrainingSerializer(training).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RetinueNameSerializer, responses={200: UnitSerializer})
    @action(detail=True, methods=["post"], url_path="name")
    def retinue_name(self, request, pk=None):
        """Name a retinue: only its owner may (the one character who paid for everything)."""
        unit = self.get_object()
        name = _valid(RetinueNameSerializer, request).validated_data["name"]
        return Response(UnitSerializer(services.unit_name_retinue(unit=unit, name=name, actor=request.user)).data)


class FundingRequestViewSet(CampaignFilterMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                            mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Requests my commanders made or received (``?campaign=``). Create one as a commander of mine; the
    funder accepts (the lunari move at once) or declines; the requester may withdraw while it is pending."""

    serializer_class = FundingRequestSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return FundingRequest.objects.none()
        mine = selectors.commanders_visible_to(user=self.request.user)
        return self.filtered(FundingRequest.objects.filter(Q(requester__in=mine) | Q(funder__in=mine))
                             .select_related("requester", "funder", "campaign")).order_by("-created_at", "-id")

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = funding_services.funding_request_create(
            requester=data["requester"], funder=data["funder"], amount=data["amount"], reason=data["reason"],
            actor=self.request.user)

    def _decide(self, request, service):
        body = _valid(FundingResponseSerializer, request)
        return Response(FundingRequestSerializer(service(request=self.get_object(), actor=request.user,
                                                         **body.validated_data)).data)

    @extend_schema(request=FundingResponseSerializer, responses={200: FundingRequestSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The funder agrees: the lunari move from their purse in the same transaction."""
        return self._decide(request, funding_services.funding_request_accept)

    @extend_schema(request=FundingResponseSerializer, responses={200: FundingRequestSerializer})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return self._decide(request, funding_services.funding_request_decline)

    @extend_schema(request=None, responses={200: FundingRequestSerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """The requester takes back a pending request."""
        funding = funding_services.funding_request_withdraw(request=self.get_object(), actor=request.user)
        return Response(FundingRequestSerializer(funding).data)


class ArrearsViewSet(viewsets.ReadOnlyModelViewSet):
    """Upkeep debts of my commanders (a GM: of every commander), ``?status=open``; GMs settle or forgive them."""

    serializer_class = ArrearsSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return UpkeepArrears.objects.none()
        queryset = UpkeepArrears.objects.filter(commander__in=selectors.commanders_visible_to(user=self.request.user))
        wanted = self.request.query_params.get("status")
        if wanted in UpkeepArrears.Status.values:
            queryset = queryset.filter(status=wanted)
        return queryset.select_related("commander", "bill").order_by("-created_at", "-id")

    @extend_schema(request=ArrearsSettleSerializer, responses={200: ArrearsSerializer})
    @action(detail=True, methods=["post"])
    def settle(self, request, pk=None):
        """Pay the debt in full from a purse (the debtor's or a benefactor's)."""
        debt = self.get_object()
        _require_gm(request.user, debt.commander.campaign_id)
        body = ArrearsSettleSerializer(data=request.data)
        body.fields["paid_by"].queryset = Commander.objects.filter(campaign_id=debt.commander.campaign_id)
        body.is_valid(raise_exception=True)
        debt = upkeep.upkeep_arrears_settle(arrears=debt, paid_by=body.validated_data["paid_by"],
                                            actor=request.user)
        return Response(ArrearsSerializer(debt).data)

    @extend_schema(request=ArrearsForgiveSerializer, responses={200: ArrearsSerializer})
    @action(detail=True, methods=["post"])
    def forgive(self, request, pk=None):
        """Write the debt off, saying why: the row stays."""
        debt = self.get_object()
        _require_gm(request.user, debt.commander.campaign_id)
        note = _valid(ArrearsForgiveSerializer, request).validated_data["note"]
        return Response(ArrearsSerializer(upkeep.upkeep_arrears_forgive(arrears=debt, note=note,
                                                                        actor=request.user)).data)


class UpkeepDayViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A Day's upkeep: the forecast of every commander I may see, and (GMs) closing the Day. The list gives
    each Day I may see (``?campaign=``) with its forecasts, newest first."""

    serializer_class = UpkeepForecastSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Day.objects.none()
        days = campaigns_selectors.days_visible_to(user=self.request.user).select_related("event")
        wanted = parse_id(self.request.query_params.get("campaign"))
        return days if wanted is None else days.filter(event__campaign_id=wanted)

    def _forecasts(self, day: Day) -> list[dict]:
        visible = set(selectors.commanders_visible_to(user=self.request.user)
                      .filter(campaign_id=day.event.campaign_id).values_list("pk", flat=True))
        forecasts = selectors.upkeep_forecasts(day=day)
        pledges = selectors.upkeep_pledges(day=day)
        return [_forecast_data(cid, day, result, pledges.get(cid, 0)) for cid, result in sorted(forecasts.items())
                if cid in visible]

    @extend_schema(parameters=[OpenApiParameter("campaign", int, description="Only this campaign's Days.")],
                   responses={200: UpkeepDaySerializer(many=True)})
    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset().order_by("-pk"))
        rows = [{"day": day.pk, "status": day.status, "forecasts": self._forecasts(day)} for day in page]
        return self.get_paginated_response(UpkeepDaySerializer(rows, many=True).data)

    @extend_schema(operation_id="upkeep_days_retrieve", responses={200: UpkeepForecastSerializer(many=True)})
    def retrieve(self, request, *args, **kwargs):
        return Response(UpkeepForecastSerializer(self._forecasts(self.get_object()), many=True).data)

    @extend_schema(request=None, responses={200: DayCloseSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Close the Day: post every upkeep bill, record arrears, refresh Morale, open the next Day.
        Closing a closed Day posts nothing and says so (``already_closed``)."""
        day = self.get_object()
        _require_gm(request.user, day.event.campaign_id, Action.RUN_CLOCK)
        result = upkeep.day_close(day=day, actor=request.user)
        return Response(DayCloseSerializer({
            "day": result.day.pk, "already_closed": result.already_closed, "bills": len(result.bills),
            "upkeep_paid": sum(bill.amount_paid for bill in result.bills), "arrears": len(result.arrears),
            "next_day": result.next_day.pk if result.next_day else None}).data)
