from django.urls import path, register_converter

from scoring import profile_views, table_views, views
from scoring.games.interface import Slot

app_name = "scoring"


class SlotConverter:
    """A deal's slot in a URL: "7" (Kop, Baśka), "2.7" (Vint: rubber 2, deal 7)."""

    regex = r"[0-9]{1,9}(?:\.[0-9]{1,9})?"

    def to_python(self, value: str) -> Slot:
        return Slot.parse(value)

    def to_url(self, value: Slot | int | str) -> str:
        return value.label if isinstance(value, Slot) else str(value)


register_converter(SlotConverter, "slot")

urlpatterns = [
    path("sessions/", views.session_index, name="sessions"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/import/", views.session_import, name="session_import"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/preview/", views.deal_preview, name="preview"),
    path("sessions/<int:pk>/deals/", views.deal_add, name="deal_add"),
    path("sessions/<int:pk>/deals/<slot:slot>/", views.deal_edit, name="deal_edit"),
    path("sessions/<int:pk>/deals/<slot:slot>/void/", views.deal_void, name="deal_void"),
    path("sessions/<int:pk>/lock/", table_views.session_lock, name="session_lock"),
    path("sessions/<int:pk>/planned/", table_views.session_planned, name="session_planned"),
    path("sessions/<int:pk>/link/", table_views.session_link_reissue, name="link_reissue"),
    path("sessions/<int:pk>/accept/", table_views.session_accept, name="session_accept"),
    path(
        "sessions/<int:pk>/ratings/",
        table_views.session_rating_exclude,
        name="session_rating_exclude",
    ),
    path("sessions/<int:pk>/history/", views.session_history, name="history"),
    path("sessions/<int:pk>/sheet/", views.session_sheet, name="sheet"),
    path("sessions/<int:pk>/pad/", views.score_pad, name="pad"),
    path("sessions/<int:pk>/export.json", views.session_export_json, name="export_json"),
    path("sessions/<int:pk>/export.csv", views.session_export_csv, name="export_csv"),
    path("pad/<slug:game>/", views.score_pad, name="blank_pad"),
    path("t/<slug:token>/", views.table_link, name="table_link"),
    path("profiles/", profile_views.profile_index, name="profiles"),
    path("profiles/new/", profile_views.profile_edit, name="profile_new"),
    path("profiles/<slug:slug>/edit/", profile_views.profile_edit, name="profile_edit"),
]
