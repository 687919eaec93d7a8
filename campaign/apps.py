from django.apps import AppConfig
from django.urls import register_converter


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign.web.numbers import IdConverter

        register_converter(IdConverter, "id")  # ids in page URLs: see campaign.web.numbers
