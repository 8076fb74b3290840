from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.core import checks

        # Services enqueue tasks by name; without a broker the named task runs
        # in-process, looked up in Celery's registry, which has it once its module is
        # imported.
        import tournaments.tasks  # noqa: F401
        from clubs.signals import person_merge_check, person_rows_changed
        from ops.signals import heartbeat
        from scoring.models import title_register
        from scoring.signals import table_changed
        from scoring.visibility import hiding_register
        from tournaments.checks import demo_passwords_check
        from tournaments.ratings import merge_check, rows_changed
        from tournaments.selectors import session_results_hidden, session_title
        from tournaments.services import session_changed, standings_catch_up

        # Scoring announces every change of a table; a tournament table's change moves
        # the standings and ratings (scoring never imports tournaments).
        table_changed.connect(session_changed, dispatch_uid="tournaments.session_changed")
        # Ratings follow the person: a merge of register rows must not seat one person
        # twice at a table, and rates again what it changed (clubs never imports us).
        person_merge_check.connect(merge_check, dispatch_uid="tournaments.merge_check")
        person_rows_changed.connect(rows_changed, dispatch_uid="tournaments.rows_changed")
        # A tournament that hides its standings hides its tables' sheets too.
        hiding_register(session_results_hidden)
        # A tournament table is named from its tournament, round and table numbers.
        title_register(session_title)
        # Every heartbeat queues again a standings recompute that a crash interrupted.
        heartbeat.connect(standings_catch_up, dispatch_uid="tournaments.standings_catch_up")
        checks.register(demo_passwords_check, checks.Tags.security, deploy=False)
