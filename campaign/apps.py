from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.urls import register_converter


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign.campaigns.house_rules import HouseRule, house_rule_register
        from campaign.campaigns.memberships_kept import memberships_kept_connect
        from campaign.campaigns.reversals import WINDOW_RULE, reversal_guard_register, reversal_kind_register
        from campaign.campaigns.selectors import stamp_columns, stamp_of
        from campaign.economy import day_reversal
        from campaign.economy.upkeep import day_closed
        from campaign.map import battle_terrain, hour_reversal, outcome_reversal
        from campaign.map.services import bases_refresh
        from campaign.map.views import remembered_version
        from campaign.models import Reversible
        from campaign.notifications.selectors import unread_column
        from campaign.notifications.services import day_closed_notify
        from campaign.web.numbers import IdConverter
        from campaign.web.page_cache import page_version_register, user_state_forget
        from campaign.web.poll_tokens import poll_register

        register_converter(IdConverter, "id")  # ids in page URLs: see campaign.web.numbers
        poll_register("map", path=lambda subject: "/map/svg/", version=remembered_version)
        poll_register("map-data", path=lambda subject: "/map/data/", version=remembered_version)
        page_version_register("stamp", columns=stamp_columns, value=stamp_of)
        page_version_register("unread", columns=lambda: [unread_column()])
        post_save.connect(lambda instance, **kwargs: user_state_forget(instance.pk), sender=get_user_model(),
                          dispatch_uid="campaign.web.page_cache.user_saved", weak=False)
        post_delete.connect(lambda instance, **kwargs: user_state_forget(instance.pk), sender=get_user_model(),
                            dispatch_uid="campaign.web.page_cache.user_deleted", weak=False)
        memberships_kept_connect()
        day_closed.connect(bases_refresh, dispatch_uid="campaign.map.bases_refresh")
        day_closed.connect(day_closed_notify, dispatch_uid="campaign.notifications.day_closed")
        house_rule_register(WINDOW_RULE)
        reversal_kind_register(Reversible.Kind.HOUR, hour_reversal.hour_reverse)
        reversal_guard_register(Reversible.Kind.HOUR, hour_reversal.clock_running)
        reversal_kind_register(Reversible.Kind.DAY, day_reversal.day_reopen)
        reversal_kind_register(Reversible.Kind.OUTCOME, outcome_reversal.outcome_reverse)
        reversal_guard_register(Reversible.Kind.DAY, day_reversal.day_guard)
        house_rule_register(HouseRule(
            key=battle_terrain.HOUSE_RULE, label="Terrain advantages in Battle", kind="json", default=None,
            ruling="Army Combat: \"certain environments on the battlefield may grant advantages or disadvantages\". "
                   "By terrain kind, e.g. {\"difficult\": [{\"side\": \"defender\", \"add\": 1, \"units\": "
                   "{\"path\": \"Nature\"}}]}; none by default.",
            check=battle_terrain.terrain_rules_checked))
