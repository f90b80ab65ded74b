"""The per-address counters of the SMTP server (app/smtp/limits.py), with a clock of the test's own:
connections counted on and off, failed AUTH forgotten after the window, the tables bounded; failed
AUTH shared through the run's real Redis."""

from __future__ import annotations

import secrets

import pytest
import redis.asyncio as aioredis

from app.smtp import limits
from app.smtp.limits import FAILURE_WINDOW_SECONDS, Limits, SharedFailures, address_of, failure_source


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_connections_are_counted_per_address_and_counted_off():
    counters = Limits(connections=2, auth_failures=3)
    assert counters.open("192.0.2.1") and counters.open("192.0.2.1")
    assert not counters.open("192.0.2.1")  # a third at once
    assert counters.open("198.51.100.7")  # another address is not held back
    counters.close("192.0.2.1")
    assert counters.open("192.0.2.1")


def test_failed_auth_blocks_the_address_for_the_window_only():
    clock = Clock()
    counters = Limits(connections=10, auth_failures=2, clock=clock)
    counters.auth_failed("192.0.2.1")
    assert not counters.auth_blocked("192.0.2.1")
    counters.auth_failed("192.0.2.1")
    assert counters.auth_blocked("192.0.2.1") and not counters.auth_blocked("198.51.100.7")
    clock.now += FAILURE_WINDOW_SECONDS + 1
    assert not counters.auth_blocked("192.0.2.1")


def test_the_tables_never_grow_past_their_bound(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ADDRESSES", 3)
    counters = Limits(connections=1, auth_failures=1)
    assert all(counters.open(f"192.0.2.{n}") for n in range(3))
    assert not counters.open("192.0.2.9")  # full of open connections: refused, not grown
    for n in range(5):
        counters.auth_failed(f"198.51.100.{n}")
    assert len(counters._failures) <= 3


def test_the_address_of_a_peer():
    assert address_of(("192.0.2.1", 40000)) == "192.0.2.1"
    assert address_of(("2001:db8::1", 40000, 0, 0)) == "2001:db8::1"
    assert address_of(None) == "unknown"


def test_an_ipv6_client_is_counted_by_its_64():
    assert failure_source("2001:db8:1:2::1") == failure_source("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert failure_source("2001:db8:1:3::1") != failure_source("2001:db8:1:2::1")
    assert failure_source("::ffff:192.0.2.1") == failure_source("192.0.2.1") == "192.0.2.1"
    assert failure_source("unknown") == "unknown"


@pytest.fixture
async def redis(services):
    client = aioredis.Redis.from_url(services.redis_url)
    yield client
    await client.aclose()


async def test_failed_auth_is_shared_by_every_process_and_redis_stays_bounded(redis, monkeypatch):
    """Two smtpd processes behind one address (two counters on one Redis) share the bound; a flood of
    addresses stops adding keys at MAX_ADDRESSES a window."""
    clock = Clock()
    clock.now = 10_000 * FAILURE_WINDOW_SECONDS + secrets.randbelow(10_000) * FAILURE_WINDOW_SECONDS
    first, second = SharedFailures(redis, 3, clock), SharedFailures(redis, 3, clock)
    await first.failed("192.0.2.1")
    await second.failed("192.0.2.1")
    assert not await first.blocked("192.0.2.1") and not await second.blocked("192.0.2.1")
    await first.failed("192.0.2.1")
    assert await second.blocked("192.0.2.1") and not await second.blocked("192.0.2.2")
    clock.now += FAILURE_WINDOW_SECONDS  # the next window starts afresh
    assert not await first.blocked("192.0.2.1")

    monkeypatch.setattr(limits, "MAX_ADDRESSES", 3)
    for n in range(6):
        await first.failed(f"198.51.100.{n}")
    window = int(clock.now // FAILURE_WINDOW_SECONDS)
    keys = [key async for key in redis.scan_iter(f"{limits.PREFIX}:{window}:*")]
    assert len(keys) == 3 + 1  # three addresses and the window's count of them
    ttl = await redis.ttl(f"{limits.PREFIX}:{window}:198.51.100.0")
    assert 0 < ttl <= 2 * FAILURE_WINDOW_SECONDS


async def test_redis_away_leaves_the_process_count_in_charge():
    away = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    shared = SharedFailures(away, 1)
    await shared.failed("192.0.2.1")  # logged, not raised
    assert not await shared.blocked("192.0.2.1")
    await away.aclose()
