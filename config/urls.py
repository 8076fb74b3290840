from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from config import views
from config.security import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("ops.urls")),  # /health
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path(
        "accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/members/", include("clubs.urls")),
    # The language switch takes no CSRF token: the public standings page is one copy
    # shared by every reader who is not signed in, drawn without a token (a token is each
    # reader's own), and its language switch must work. What a forged switch could do is
    # change a visitor's language; its ``next`` stays on this site (Django checks it).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    # The read API (``api``; docs/api.md); API_ENABLED=false answers 404 there.
    path("api/", include("api.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
]
