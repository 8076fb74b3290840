"""Operations below the apps: the worker heartbeat, the task outbox and the health check.

Both apps may import ``ops``; ``ops`` imports neither of them (nor ``clubs``), so it knows
tasks only by their Celery names and tournaments only by their ids. Its two tables kept
the names they had when they belonged to ``tournaments`` (``Meta.db_table``).
"""
