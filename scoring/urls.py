from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("sessions/", views.session_index, name="sessions"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/import/", views.session_import, name="session_import"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/preview/", views.deal_preview, name="preview"),
    path("sessions/<int:pk>/deals/", views.deal_add, name="deal_add"),
    path("sessions/<int:pk>/deals/<int:number>/", views.deal_edit, name="deal_edit"),
    path("sessions/<int:pk>/deals/<int:number>/void/", views.deal_void, name="deal_void"),
    path("sessions/<int:pk>/lock/", views.session_lock, name="session_lock"),
    path("sessions/<int:pk>/link/", views.session_link_reissue, name="link_reissue"),
    path("sessions/<int:pk>/accept/", views.session_accept, name="session_accept"),
    path("sessions/<int:pk>/ratings/", views.session_rating_exclude, name="session_rating_exclude"),
    path("sessions/<int:pk>/history/", views.session_history, name="history"),
    path("sessions/<int:pk>/sheet/", views.session_sheet, name="sheet"),
    path("sessions/<int:pk>/pad/", views.score_pad, name="pad"),
    path("sessions/<int:pk>/export.json", views.session_export_json, name="export_json"),
    path("sessions/<int:pk>/export.csv", views.session_export_csv, name="export_csv"),
    path("pad/kop/", views.score_pad, name="blank_pad"),
    path("t/<slug:token>/", views.table_link, name="table_link"),
    path("profiles/", views.profile_index, name="profiles"),
    path("profiles/new/", views.profile_edit, name="profile_new"),
    path("profiles/<slug:slug>/edit/", views.profile_edit, name="profile_edit"),
    # Vint deals are named by rubber and number; the same views serve them.
    path("sessions/<int:pk>/vint/preview/", views.deal_preview, name="vint_preview"),
    path("sessions/<int:pk>/vint/deals/", views.deal_add, name="vint_deal_add"),
    path(
        "sessions/<int:pk>/vint/<int:rubber>/<int:number>/",
        views.deal_edit,
        name="vint_deal_edit",
    ),
    path(
        "sessions/<int:pk>/vint/<int:rubber>/<int:number>/void/",
        views.deal_void,
        name="vint_deal_void",
    ),
    path("sessions/<int:pk>/vint/history/", views.session_history, name="vint_history"),
]
