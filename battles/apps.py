from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """A live Battle's result reaches the campaign when its match ends (cardgames knows nothing of battles)."""
        from cardgames.signals import match_finished

        match_finished.connect(_on_match_finished, dispatch_uid="battles.apply_finished_match")


def _on_match_finished(sender, match, **kwargs) -> None:
    if match.game != "army-combat":
        return
    from battles.services import battle_live_finished

    battle_live_finished(match=match)
