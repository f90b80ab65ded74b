"""Fixtures of tests/providers/ (defined in tests/fixtures/)."""


from tests.fixtures.platform import *  # noqa: F401,F403
from tests.fixtures.providers import h2_server, http_server, tenant_pk  # noqa: F401  (dns_server: tests/conftest.py)
