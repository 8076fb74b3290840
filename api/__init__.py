"""The public read API, ``/api/v1/`` (Django REST framework, schema by drf-spectacular).

It reads what the site's pages read, through the same selectors and visibility checks:
a reader without a token sees what an anonymous visitor of the site sees; a token
(``clubs.models.ApiToken``, made on the members page) reads what its account may read.
Nothing is computed twice: standings are the stored rows of the newest snapshot.
docs/api.md is the guide for a club website's developer.
"""
