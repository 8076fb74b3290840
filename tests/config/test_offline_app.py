"""The installable pad: the service worker at the site's root, the manifest, and a CSP that
lets both come from this site only."""

from __future__ import annotations

import json

import pytest


@pytest.mark.django_db
def test_the_service_worker_is_served_from_the_root_and_never_answers_a_post(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    assert 'addEventListener("fetch"' in source
    assert 'if (request.method !== "GET") return;' in source


@pytest.mark.django_db
def test_the_manifest_makes_the_pad_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/sessions/"
    assert manifest["icons"][0]["src"].startswith("/static/")
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


@pytest.mark.django_db
def test_workers_and_manifests_come_from_this_site_only(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"
