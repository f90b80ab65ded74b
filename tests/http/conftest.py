"""Fixtures of tests/http/ (defined in tests/fixtures/)."""


from tests.fixtures.platform import *  # noqa: F401,F403
from tests.fixtures.http import *  # noqa: F401,F403
