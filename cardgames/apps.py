from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign.campaigns.house_rules import HouseRule, house_rule_register
        from campaign.web.page_cache import page_version_register
        from campaign.web.poll_tokens import poll_register
        from cardgames import challenges, selectors

        poll_register("match", path=lambda subject: f"/matches/{subject[1]}/table/",
                      version=lambda subject: selectors.match_version(match_id=subject[1]))
        page_version_register("match", columns=lambda: [selectors.match_version_column()])

        house_rule_register(HouseRule(
            key=challenges.HOUSE_RULE, label="The bank takes stakes against an AI", kind="bool", default=False,
            ruling="A practice game against an AI stakes nothing; with this, a player may stake lunari and the "
                   "campaign's bank matches them (the bank keeps the stake if the AI wins)."))
