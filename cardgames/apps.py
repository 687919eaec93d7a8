from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    default_auto_field = "django.db.models.BigAutoField"
