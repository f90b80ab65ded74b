"""Fixtures of the service-client tests: the real identity server, clients pointed at it, a clock."""

from __future__ import annotations

import os
from typing import AsyncIterator

import httpx
import pytest

from app.http.services import ServiceClient
from tests.harness import free_port


class Clock:
    """A clock the test moves: breakers and caches take one, so no test sleeps through a cool-down."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="session")
def identity_url(servers) -> str:
    return servers("identity").url


@pytest.fixture
async def http(identity_url) -> AsyncIterator[httpx.AsyncClient]:
    """A plain client to the identity server, for setting things up through its real routes."""
    async with httpx.AsyncClient(base_url=identity_url, timeout=20) as client:
        yield client


@pytest.fixture
async def identity(identity_url) -> AsyncIterator[ServiceClient]:
    """A service client to the identity server, fresh (closed breaker) for each test."""
    async with ServiceClient("identity", identity_url, os.environ["SERVICE_TOKEN"]) as client:
        yield client


@pytest.fixture
def closed_url() -> str:
    """A loopback address where nothing listens."""
    return f"http://127.0.0.1:{free_port()}"
