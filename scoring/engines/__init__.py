"""Pure scoring engines: plain data in, plain data out, no Django.

Every module here imports only the standard library, so the engines can be
tested and benchmarked alone (``tests/engines/test_purity.py`` checks that).
"""
