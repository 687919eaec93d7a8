from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """A live Battle's result reaches the campaign when its match ends (cardgames knows nothing of battles)."""
        from battles import reversal
        from battles.engine.roster import DEFAULT_HOUSE_RULES
        from campaign.campaigns.house_rules import HouseRule, house_rule_register
        from campaign.campaigns.reversals import reversal_guard_register, reversal_kind_register
        from campaign.models import Reversible
        from cardgames.signals import match_finished

        match_finished.connect(_on_match_finished, dispatch_uid="battles.apply_finished_match")
        reversal_kind_register(Reversible.Kind.BATTLE, reversal.battle_result_reverse)
        reversal_guard_register(Reversible.Kind.HOUR, reversal.hour_battles_fought)
        house_rule_register(HouseRule(
            key="battle.reroll_limit", label="Re-rolls of a tie before the attacker wins", kind="int",
            default=DEFAULT_HOUSE_RULES["reroll_limit"], minimum=1, maximum=1000,
            ruling="RULINGS.md: equal base Strength re-rolls; the engine must end, so after 100 re-rolls the "
                   "attacker wins."))


def _on_match_finished(sender, match, **kwargs) -> None:
    if match.game != "army-combat":
        return
    from battles.services import battle_live_finished

    battle_live_finished(match=match)
