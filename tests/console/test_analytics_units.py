"""The analytics screens' own arithmetic (app/console/analytics/routes.py), without servers: the
period's whole UTC days as the runtime's ``de``/``ate``, every day of it listed (zeros where the
runtime has none), the bars' lengths and shares, and the relay's refusals in words."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from app.console.analytics.live import _refusal
from app.console.analytics.routes import bars, days_of, period_of


def _request(**args: str):
    return SimpleNamespace(args=args)


def test_periods_are_whole_utc_days_and_an_unknown_one_is_the_last_seven():
    today = date(2026, 11, 28)
    assert period_of(_request(period="today"), today)[2] == {"de": "2026-11-28", "ate": "2026-11-28"}
    assert period_of(_request(period="30d"), today)[2] == {"de": "2026-10-30", "ate": "2026-11-28"}
    chosen, name, span = period_of(_request(period="1y"), today)
    assert (chosen, name, span) == ("7d", "Last 7 days", {"de": "2026-11-22", "ate": "2026-11-28"})


def test_every_day_of_the_period_is_listed_with_zeros_where_there_was_no_traffic():
    overview = {"Days": [{"Day": "2026-11-27", "Pageviews": 4, "Sessions": 2, "Clicks": 1}]}
    rows = days_of(overview, {"de": "2026-11-26", "ate": "2026-11-28"})
    assert [(row["Day"], row["Sessions"], row["Pageviews"]) for row in rows] == [
        ("2026-11-26", 0, 0), ("2026-11-27", 2, 4), ("2026-11-28", 0, 0)]


def test_bars_are_shares_of_the_largest_and_of_the_whole():
    items = [{"Value": "/", "Pageviews": 30, "Events": 40, "Sessions": 9, "Clicks": 0},
             {"Value": "/a", "Pageviews": 10, "Events": 12, "Sessions": 3, "Clicks": 0},
             {"Value": "/b", "Pageviews": 0, "Events": 5, "Sessions": 1, "Clicks": 0}]
    assert [(item["Width"], item["Share"]) for item in bars(items)] == [(100, 75), (33, 25), (17, 0)]
    assert bars([]) == []


def test_refusals_in_words():
    throttled = _refusal(429, {"Error": {"Code": "Throttling", "Message": "You already have 3 live streams open; "
                                                                          "close one and retry."}}, "15")
    assert throttled["Message"].startswith("You already have 3") and throttled["RetryAfter"] == 15
    assert "Sign in again" in _refusal(401, None, None)["Message"]
    assert _refusal(503, None, "5")["Message"].startswith("The live view is unavailable")
