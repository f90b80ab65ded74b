"""The pages database as the surfaces open it: ``connection()`` for reads and single statements,
``transaction()`` for writes that must commit together. Services take whichever the surface opened."""

from __future__ import annotations

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from kit.systems import PAGES


def connection() -> BaseDBAsyncClient:
    return connections.get(PAGES.name)


def transaction():
    return in_transaction(PAGES.name)
