from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = _("Operations")
    default_auto_field = "django.db.models.BigAutoField"
