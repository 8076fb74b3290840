from importlib import import_module

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.games import GAME_PACKAGES

        for package in GAME_PACKAGES:
            import_module(f"{package}.game")  # each game registers itself
        post_migrate.connect(_sync_profiles, sender=self)


def _sync_profiles(**kwargs: object) -> None:
    """Built-in profiles are (re)made after every migrate: a request never writes them."""
    from scoring.profile_services import profile_sync_builtin

    profile_sync_builtin()
