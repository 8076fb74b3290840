"""Whole events as data: the event JSON format (``shared/formats/event-json.md``).

Pure Python like the engines: nothing here imports Django, models or settings. It
reads an event file, scores its deals through the scoresheet readers
(``scoring.engines.sheets``) and its standings through
``tournaments.ranking.competition``.
"""
