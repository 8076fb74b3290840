"""The tournaments app's views, by what a request does: ``pages`` show a tournament,
``actions`` change it (forms, each calling a service), ``standings`` is the standings
page with its poll and CSV (the page most readers ask for, with its shared copy)."""
