"""Fixtures of tests/herald/ (defined in tests/fixtures/)."""


from tests.fixtures.platform import *  # noqa: F401,F403
from tests.fixtures.providers import *  # noqa: F401,F403
