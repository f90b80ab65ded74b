"""Fixtures of tests/identity/ (defined in tests/fixtures/)."""


from tests.fixtures.identity import *  # noqa: F401,F403
