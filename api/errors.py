"""Every error of the API as JSON: ``{"code": ..., "message": ...}`` (English: the reader
is a developer). 429 carries ``Retry-After``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def _message(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_message(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_message(value) for value in detail)
    return str(detail)


def _code(exc: Exception, detail: Any) -> str:
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        if isinstance(codes, str):
            return codes
        return exc.default_code
    return "error"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = getattr(exc, "detail", response.data)
    if isinstance(exc, exceptions.Throttled):
        message = f"Too many requests: try again in {exc.wait or 1:.0f} seconds."
    else:
        message = _message(detail)
    code = "not_found" if response.status_code == 404 else _code(exc, detail)
    response.data = {"code": code, "message": message}
    return response


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any /api/ address no operation has."""
    return error(404, "not_found", "No such address in the API: see /api/v1/docs/.")
