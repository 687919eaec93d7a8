"""The ledger as CSV for a spreadsheet or a backup: a commander's purse (their player or a GM) and the whole
campaign's ledger, every entry of every account (GMs). Oldest first, each purse row with the balance after it;
a reversal names the transaction it reverses. Streamed, so a long ledger is not built in memory."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, StreamingHttpResponse
from django.utils.text import slugify

from campaign.campaigns.permissions import Action, require
from campaign.campaigns.views import campaign_membership
from campaign.economy.views import _commander
from campaign.models import Commander, LedgerEntry


class _Echo:
    """csv.writer writes into this and gets the line back, for streaming."""

    def write(self, value: str) -> str:
        return value


def _csv(name: str, rows: Iterator[list]) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse((writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


def _purse_rows(commander: Commander) -> Iterator[list]:
    yield ["transaction", "at", "kind", "reason", "amount", "balance_after", "by", "reverses"]
    balance = 0
    for entry in (LedgerEntry.objects.filter(account__commander=commander)
                  .select_related("transaction__actor").order_by("transaction__at", "transaction_id", "id")
                  .iterator(chunk_size=500)):
        txn = entry.transaction
        balance += entry.amount
        yield [txn.pk, txn.at.isoformat(), txn.kind, txn.reason, entry.amount, balance,
               txn.actor.get_username() if txn.actor else "", txn.reverses_id or ""]


def _campaign_rows(campaign_id: int) -> Iterator[list]:
    yield ["transaction", "at", "kind", "reason", "account", "commander", "amount", "by", "reverses"]
    for entry in (LedgerEntry.objects.filter(transaction__campaign_id=campaign_id)
                  .select_related("transaction__actor", "account__commander")
                  .order_by("transaction__at", "transaction_id", "id").iterator(chunk_size=500)):
        txn, account = entry.transaction, entry.account
        yield [txn.pk, txn.at.isoformat(), txn.kind, txn.reason, account.kind,
               account.commander.name if account.commander else "", entry.amount,
               txn.actor.get_username() if txn.actor else "", txn.reverses_id or ""]


@login_required
def commander_ledger_csv(request: HttpRequest, slug: str, commander_id: int) -> StreamingHttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    return _csv(f"ledger-{slugify(commander.name)}", _purse_rows(commander))


@login_required
def campaign_ledger_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.ACT_FOR_ANY)
    return _csv(f"ledger-{campaign.slug}", _campaign_rows(campaign.pk))
