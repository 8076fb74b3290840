"""The request the views see: Django's, with what django-htmx's middleware adds.

``HtmxMiddleware`` (settings.MIDDLEWARE) sets ``request.htmx`` on every request; a view
that reads it says so by taking an ``HtmxHttpRequest`` (django-htmx's documented pattern).
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
