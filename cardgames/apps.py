from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign.campaigns.house_rules import house_rule_check_register
        from cardgames import challenges

        house_rule_check_register(challenges.HOUSE_RULE, challenges.ai_stakes_rule_checked)
