"""A website's developer opens the read API's documentation: Redoc draws the schema,
with every file from this site (no CDN) under the site's CSP. (Redoc's footer asks for
its maker's logo from cdn.redoc.ly; the CSP refuses it, so nothing arrives from there.)"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_draw_from_this_site_alone(desktop, live_server):
    asked: list[str] = []
    refused: list[str] = []
    desktop.on("response", lambda response: asked.append(response.url))
    desktop.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    desktop.goto(f"{live_server.url}/api/v1/docs/")
    desktop.get_by_role("heading", name="tablescore API").first.wait_for()
    desktop.get_by_text("/api/v1/tournaments/{slug}/standings/").first.wait_for(state="attached")
    assert asked and all(
        url.startswith(live_server.url) or url.startswith("blob:") for url in asked
    )
    assert not [text for text in refused if "script" in text.lower()], refused
