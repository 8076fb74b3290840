"""Pages of a list: ``?page=`` (from 1) and ``?page_size=`` (at most 200)."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
