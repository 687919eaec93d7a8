from django.apps import AppConfig
from django.urls import register_converter


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign.campaigns.house_rules import house_rule_check_register
        from campaign.map import battle_terrain
        from campaign.web.numbers import IdConverter

        register_converter(IdConverter, "id")  # ids in page URLs: see campaign.web.numbers
        house_rule_check_register(battle_terrain.HOUSE_RULE, battle_terrain.terrain_rules_checked)
