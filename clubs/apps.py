from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connected here, not at import of clubs.roles: a shell, a script or a worker that
        # changes a role never imports it, and the next request must see the change.
        from django.db.models.signals import post_delete, post_save

        from clubs.models import Membership
        from clubs.roles import forget_membership

        post_save.connect(forget_membership, sender=Membership, dispatch_uid="club-roles-save")
        post_delete.connect(forget_membership, sender=Membership, dispatch_uid="club-roles-del")
