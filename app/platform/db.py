"""The platform database as the surfaces open it: one place names the connection.

``connection()`` for reads and single statements (atomic on their own), ``transaction()`` for
writes that must commit together. Services take whichever the surface opened.
"""

from __future__ import annotations

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from kit.systems import PLATFORM


def connection() -> BaseDBAsyncClient:
    return connections.get(PLATFORM.name)


def transaction():
    return in_transaction(PLATFORM.name)
