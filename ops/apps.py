from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = _("Operations")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # ``ops.outbox`` sends tasks by name; without a broker the named task runs
        # in-process, looked up in Celery's registry, which has it once its module is
        # imported (a worker imports every app's tasks itself).
        from django.core.signals import request_finished

        import ops.tasks  # noqa: F401
        from ops.heartbeat import beat_after_response

        # Without a worker nothing runs on a schedule: the server beats itself after a
        # response, at most once a HEARTBEAT_SECONDS (ops.heartbeat).
        request_finished.connect(beat_after_response, dispatch_uid="ops.beat_after_response")
