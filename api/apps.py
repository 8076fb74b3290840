from __future__ import annotations

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Read API"

    def ready(self) -> None:
        # drf-spectacular's extension for the bearer token (registered on import).
        from api import schema  # noqa: F401
