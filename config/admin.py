"""The admin site is the site administrators' (superusers'): clubs, their first
directors, anything a club's pages do not reach. A club's director works on the club's
pages, which check the club of everything he changes; the admin does not, so it is not
his (a staff flag or a model permission left from the single-club days opens nothing)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from config.security import AdminLoginForm


class SiteAdmin(admin.AdminSite):
    # Its login refuses the user names the site's own refuses (config.security.LoginNameField).
    login_form = AdminLoginForm

    def has_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_superuser)
