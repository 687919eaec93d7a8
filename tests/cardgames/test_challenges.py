"""Challenges between players' commanders and practice games against an AI: every refusal says what to do,
stakes move into escrow only when a challenge is accepted (in that one transaction), answering twice is
harmless, and the bank takes or pays a practice stake only by house rule."""

import json

import pytest
from django.core.exceptions import ValidationError

from campaign.campaigns.house_rules import house_rules_check
from campaign.campaigns.permissions import NotAllowed
from campaign.models import AuditEntry, LedgerTransaction
from cardgames import challenges, registry, selectors, services
from cardgames.models import AIPolicy, Challenge, Match
from tests.campaign.factories import CommanderFactory
from tests.cardgames.test_stakes import assert_books_balance, escrow, purse

pytestmark = pytest.mark.django_db

SEED_PERSON_WINS, SEED_AI_WINS = 2, 1
"""Seeds of practice games where the person (`play_against_the_ai`) wins, and where the AI does."""


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)


@pytest.fixture
def bastian(campaign, rival):
    return CommanderFactory(campaign=campaign, name="Bastian", player=rival, lunari=25)


def challenge(amira, bastian, player, stake=10, **kwargs):
    return challenges.challenge_create(challenger=amira, challenged=bastian, game="command-dice", stake=stake,
                                       actor=player, **kwargs)


def refusal(call) -> str:
    with pytest.raises(ValidationError) as exc:
        call()
    return " ".join(exc.value.messages)


def test_a_challenge_is_open_and_audited_and_holds_nothing(campaign, player, amira, bastian):
    sent = challenge(amira, bastian, player, config={"victories": 2})
    assert (sent.status, sent.stake, sent.config, sent.match) == (Challenge.Status.OPEN, 10, {"victories": 2}, None)
    assert (purse(amira), purse(bastian)) == (100, 25)
    assert AuditEntry.objects.filter(action="challenge.create").count() == 1


def test_accepting_starts_the_match_with_both_stakes_in_escrow(campaign, player, rival, amira, bastian):
    sent = challenge(amira, bastian, player, config={"victories": 2})
    match = challenges.challenge_accept(challenge=sent, actor=rival)
    assert (purse(amira), purse(bastian), escrow(campaign)) == (90, 15, 20)
    assert [(s.user, s.commander, s.stake) for s in match.seats.all()] == [(player, amira, 10), (rival, bastian, 10)]
    assert match.config == {"victories": 2}
    sent.refresh_from_db()
    assert (sent.status, sent.match) == (Challenge.Status.ACCEPTED, match)
    assert AuditEntry.objects.filter(action="challenge.accepted").count() == 1
    assert_books_balance(campaign)


def test_a_retried_accept_answers_the_match_it_started(campaign, player, rival, amira, bastian):
    sent = challenge(amira, bastian, player)
    first = challenges.challenge_accept(challenge=sent, actor=rival)
    assert challenges.challenge_accept(challenge=sent, actor=rival) == first
    assert Match.objects.count() == 1
    assert (purse(amira), purse(bastian), escrow(campaign)) == (90, 15, 20)


def test_a_purse_that_cannot_cover_the_stake_on_acceptance_writes_nothing(campaign, player, rival, amira, bastian):
    sent = challenge(amira, bastian, player, stake=30)  # Bastian has 25
    ledger_rows = LedgerTransaction.objects.count()
    assert refusal(lambda: challenges.challenge_accept(challenge=sent, actor=rival)) == \
        "Not enough lunari: the stake is 30, Bastian has 25."
    sent.refresh_from_db()
    assert (sent.status, Match.objects.count(), LedgerTransaction.objects.count()) == \
        (Challenge.Status.OPEN, 0, ledger_rows)
    assert (purse(amira), purse(bastian)) == (100, 25)


@pytest.mark.parametrize(("answer", "status"), [("challenge_decline", "declined"), ("challenge_withdraw", "withdrawn")])
def test_declining_or_withdrawing_leaves_the_purses_untouched_and_may_be_repeated(
        campaign, player, rival, amira, bastian, answer, status):
    sent = challenge(amira, bastian, player)
    actor = rival if status == "declined" else player
    for _ in range(2):
        getattr(challenges, answer)(challenge=sent, actor=actor)
    sent.refresh_from_db()
    assert sent.status == status
    assert (purse(amira), purse(bastian), Match.objects.count()) == (100, 25, 0)
    assert AuditEntry.objects.filter(action=f"challenge.{status}").count() == 1
    assert "already" in refusal(lambda: challenges.challenge_accept(challenge=sent, actor=rival))


def test_only_the_challenged_commanders_player_answers_and_only_the_challenger_withdraws(
        player, rival, amira, bastian):
    sent = challenge(amira, bastian, player)
    with pytest.raises(NotAllowed, match="Only Bastian's player or a game master may accept"):
        challenges.challenge_accept(challenge=sent, actor=player)
    with pytest.raises(NotAllowed):
        challenges.challenge_decline(challenge=sent, actor=player)
    with pytest.raises(NotAllowed):
        challenges.challenge_withdraw(challenge=sent, actor=rival)
    with pytest.raises(NotAllowed):
        challenges.challenge_create(challenger=bastian, challenged=amira, game="command-dice", actor=player)
    sent.refresh_from_db()
    assert sent.status == Challenge.Status.OPEN


def test_refusals(campaign, player, amira, bastian, monkeypatch):
    stranger = CommanderFactory(name="Stranger", lunari=50)
    second = CommanderFactory(campaign=campaign, name="Amira's cousin", player=player)
    assert refusal(lambda: challenge(amira, amira, player)) == \
        "You cannot challenge yourself: pick another player's commander."
    assert refusal(lambda: challenge(amira, second, player)) == \
        "You cannot challenge yourself: pick another player's commander."
    assert refusal(lambda: challenge(amira, stranger, player)) == "Stranger is not a commander of this campaign."
    assert refusal(lambda: challenge(amira, bastian, player, stake=101)) == \
        "Not enough lunari: the stake is 101, Amira has 100. Stake at most 100."
    assert refusal(lambda: challenge(amira, bastian, player, stake=-1)) == "A stake is 0 or more lunari, not -1."
    assert "has no setting" in refusal(lambda: challenge(amira, bastian, player, config={"speed": 3}))
    assert refusal(lambda: challenges.challenge_create(challenger=amira, challenged=bastian, game="army-combat",
                                                       actor=player)).startswith("Choose one of the card games")
    monkeypatch.setitem(registry.SEATS, "command-dice", (3, 3))
    assert refusal(lambda: challenge(amira, bastian, player)) == \
        "Command Dice battle cannot start so: Command Dice battle takes exactly 3 seats, not 2: add seats."
    assert Challenge.objects.count() == 0


def test_practice_against_an_ai_stakes_nothing_without_the_house_rule(campaign, player, amira):
    match = challenges.practice_start(commander=amira, game="command-dice", policy=AIPolicy.RANDOM, actor=player)
    assert [(s.commander, s.ai, s.stake) for s in match.seats.all()] == [(amira, "", 0), (None, "random", 0)]
    assert refusal(lambda: challenges.practice_start(commander=amira, game="command-dice", policy=AIPolicy.RANDOM,
                                                     stake=5, actor=player)).startswith(
        "Practice against an AI is for nothing at stake")
    assert refusal(lambda: challenges.practice_start(commander=amira, game="command-dice", policy="",
                                                     actor=player)).startswith("Pick the AI to play against")
    assert purse(amira) == 100


def test_the_house_rule_is_checked_when_a_gm_saves_it():
    house_rules_check({challenges.HOUSE_RULE: True})
    with pytest.raises(ValidationError, match="The bank takes stakes against an AI: answer true or false"):
        house_rules_check({challenges.HOUSE_RULE: "yes"})


def play_against_the_ai(match, user) -> int | None:
    """The person takes their last legal action (in Command Dice: the most dice) whenever it is their move, the
    AI its own; the winner."""
    for _ in range(2000):
        services.match_play_ai(match_id=match.pk)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match.result.get("winner")
        actions = selectors.match_table(match=match, seat=0).actions
        if actions:
            services.match_act(match_id=match.pk, seat=0, action=json.loads(actions[-1][1]), user=user)
    raise AssertionError("the match never ended")


@pytest.mark.parametrize(("seed", "winner", "lunari"), [(SEED_PERSON_WINS, 0, 120), (SEED_AI_WINS, 1, 80)])
def test_practice_staked_against_the_bank_by_house_rule(campaign, player, amira, monkeypatch, seed, winner, lunari):
    """The person who wins takes the bank's stake too; when the AI wins the bank keeps the person's."""
    campaign.house_rules = {challenges.HOUSE_RULE: True}
    campaign.save(update_fields=["house_rules"])
    monkeypatch.setattr(services.secrets, "randbelow", lambda _n: seed)
    match = challenges.practice_start(commander=amira, game="command-dice", policy=AIPolicy.RANDOM, stake=20,
                                      actor=player)
    assert (match.bank_stake, purse(amira), escrow(campaign)) == (20, 80, 20)
    assert play_against_the_ai(match, player) == winner
    assert purse(amira) == lunari
    assert selectors.match_stakes(match=match).status == ("paid" if winner == 0 else "kept")
    bank_side = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.BANK_STAKE)
    assert bank_side.get_kind_display() == "Stake against the bank"  # not a GM's grant or fine
    assert escrow(campaign) == 0
    assert_books_balance(campaign)
