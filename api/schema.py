"""What drf-spectacular cannot find by itself: the bearer token, and the error answers
every operation may give (``errors_documented``, a postprocessing hook)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

ERROR_SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
    "required": ["code", "message"],
}
ERRORS = {
    "400": "Bad query parameter",
    "401": "Unknown or revoked token",
    "403": "Not readable",
    "404": "No such thing (or not readable)",
    "429": "Too many requests: wait Retry-After seconds",
}


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer"}


def errors_documented(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation may answer the JSON error shape; a GET may answer 304."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path in result.get("paths", {}).values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            for status, text in ERRORS.items():
                responses.setdefault(
                    status, {"description": text, "content": {"application/json": {"schema": ref}}}
                )
            responses.setdefault("304", {"description": "Not modified (If-None-Match)"})
    return result
