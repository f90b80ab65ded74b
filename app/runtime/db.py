"""The runtime database as the surfaces open it: one place names the connection."""

from __future__ import annotations

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from kit.systems import RUNTIME


def connection() -> BaseDBAsyncClient:
    return connections.get(RUNTIME.name)


def transaction():
    return in_transaction(RUNTIME.name)
