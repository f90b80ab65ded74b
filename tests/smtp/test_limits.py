"""The per-address counters of the SMTP server (app/smtp/limits.py), with a clock of the test's own:
connections counted on and off, failed AUTH forgotten after the window, the tables bounded."""

from __future__ import annotations

from app.smtp import limits
from app.smtp.limits import FAILURE_WINDOW_SECONDS, Limits, address_of


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
