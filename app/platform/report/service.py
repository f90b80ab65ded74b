"""Reports: sums of the rollup counters (models/platform/report.py) of one account's live traffic.

Every query reads the window's whole days from ``report_daily_counters`` as far as they are folded
(``report_daily_folds``), and the rest, its partial first and last days and the days not folded yet
(or, by the hour, everything), from ``report_counters``, each on its unique index
(account, mode, day or hour, ...): the cost follows the days (hours) x channels x statuses x
templates with traffic, never the number of messages (:func:`counters`). The channels reported are
``email``, ``sms`` and ``push`` (the contract's, always present) and ``whatsapp`` (Herald's fourth
channel, likewise always present, zeroed without traffic); test-mode traffic (``sk_test_`` keys,
sinks only) is not in reports.

Counts (what happened in the window, at the hour it happened):
``Accepted`` (the 202s), ``Sent``, ``Delivered``, ``Failed``, ``Bounced``, ``Complained``.
Rates, rounded to 4 decimals and clamped to [0, 1] (a delivery in the window may be of a message
sent before it): ``DeliveryRate`` = Delivered / Sent, ``BounceRate`` = Bounced / Sent,
``ComplaintRate`` = Complained / Sent, ``FailureRate`` = Failed / Accepted; 0 without a
denominator.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.report.window import Window
from models.platform.report import FOLDED_BEFORE, Counted

CHANNELS = ("email", "sms", "push")  # the contract's channels (the operator's metrics add WhatsApp themselves)
REPORTED = (*CHANNELS, "whatsapp")  # the channels of the account's reports
MODE = "live"
COUNT_NAMES = {Counted.QUEUED: "Accepted", Counted.SENT: "Sent", Counted.DELIVERED: "Delivered",
               Counted.FAILED: "Failed", Counted.BOUNCED: "Bounced", Counted.COMPLAINED: "Complained"}
INTERVALS = {"hour": timedelta(hours=1), "day": timedelta(days=1)}
REFUSED_INTERVALS = ("week", "month")
# Points a timeseries may hold per channel: 31 days by the hour, a little more than a year by the day.
MAX_BUCKETS = {"hour": 31 * 24, "day": 400}
TOP_DEFAULT = 10
TOP_CAP = 50

_CHANNELS_SQL = ", ".join(f"'{channel}'" for channel in REPORTED)
_ROWS = (f"SELECT {{at}} AS at, channel, status, template, count FROM {{table}} WHERE tenant_id = $1 "
         f"AND mode = '{MODE}' AND channel IN ({_CHANNELS_SQL}) AND {{at}} >= ${{low}} AND {{at}} < ${{high}}{{fold}}")
# The whole days of a window: those folded from the daily counters, the others from the hourly ones.
FOLDED = {"report_daily_counters": f" AND day < {FOLDED_BEFORE}", "report_counters": f" AND hour >= {FOLDED_BEFORE}"}


def _hour_floor(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0)


def _day_floor(moment: datetime) -> datetime:
    return _hour_floor(moment).replace(hour=0)


def ranges(span: Window, *, hourly_only: bool = False) -> list[tuple[str, str, datetime, datetime, str]]:
    """Where a window's counts are read, as ``(table, time column, from, to, SQL condition)``: its
    whole days from the daily table as far as they are folded and from the hourly one after that
    (the condition, :data:`FOLDED`, splits them at the boundary, read by the query itself), its
    partial first and last days from the hourly one (``hourly_only``: the hourly one throughout).
    Shared by the account's reports and the operator's metrics."""
    start, end = _hour_floor(span.start), span.end
    first_day = _day_floor(start) if _day_floor(start) == start else _day_floor(start) + timedelta(days=1)
    last_day = _day_floor(end)
    if hourly_only or first_day >= last_day:
        return [("report_counters", "hour", start, end, "")]
    found = [(table, at, first_day, last_day, FOLDED[table])
             for table, at in (("report_daily_counters", "day"), ("report_counters", "hour"))]
    if start < first_day:
        found.append(("report_counters", "hour", start, first_day, ""))
    if last_day < end:
        found.append(("report_counters", "hour", last_day, end, ""))
    return found


def counters(tenant_pk: int, span: Window, *, hourly_only: bool = False, by_day: bool = False) -> tuple[str, list[Any]]:
    """A subquery of the account's counters in the window, ``(at, channel, status, template,
    count)`` rows, and its parameters (``$1`` the account), read from :func:`ranges`. With
    ``by_day`` the hourly rows' ``at`` is their day (UTC), so every row's ``at`` is a day bucket."""
    params: list[Any] = [tenant_pk]
    branches = []
    for table, at, low, high, fold in ranges(span, hourly_only=hourly_only):
        params.extend((low, high))
        sql = _ROWS.format(at=at, table=table, low=len(params) - 1, high=len(params), fold=fold)
        if by_day and at == "hour":
            sql = sql.replace("SELECT hour AS at", "SELECT date_trunc('day', hour, 'UTC') AS at", 1)
        branches.append(sql)
    return "(" + " UNION ALL ".join(branches) + ") AS c", params


def zero() -> dict[str, int]:
    return {name: 0 for name in COUNT_NAMES.values()}


def _ratio(part: int, whole: int) -> float:
    if whole <= 0:
        return 0.0
    return round(min(1.0, max(0.0, part / whole)), 4)


def rates(counts: dict[str, int]) -> dict[str, float]:
    return {"DeliveryRate": _ratio(counts["Delivered"], counts["Sent"]),
            "BounceRate": _ratio(counts["Bounced"], counts["Sent"]),
            "ComplaintRate": _ratio(counts["Complained"], counts["Sent"]),
            "FailureRate": _ratio(counts["Failed"], counts["Accepted"])}


def _name(status: str) -> str | None:
    try:
        return COUNT_NAMES[Counted(status)]
    except ValueError:
        return None


async def overview(conn: BaseDBAsyncClient, tenant_pk: int, span: Window) -> dict[str, Any]:
    source, params = counters(tenant_pk, span)
    rows = await conn.execute_query_dict(f"SELECT channel, status, sum(count)::bigint AS n FROM {source} GROUP BY 1, 2",
                                         params)
    totals, by_channel = zero(), {channel: zero() for channel in REPORTED}
    for row in rows:
        name = _name(row["status"])
        if name is None:
            continue
        totals[name] += int(row["n"])
        by_channel[row["channel"]][name] += int(row["n"])
    return {"Totals": totals, "Rates": rates(totals), "ByChannel": by_channel}


def interval_of(raw: str | None) -> str:
    value = raw or "day"
    if value in REFUSED_INTERVALS:
        raise errors.Unprocessable(f"interval {value!r} is not supported; use 'hour' or 'day'.",
                                   details={"interval": "hour or day"})
    if value not in INTERVALS:
        raise errors.Unprocessable("interval must be 'hour' or 'day'.", details={"interval": "hour or day"})
    return value


def channel_of(raw: str | None) -> str | None:
    if raw is None or raw == "":
        return None
    if raw not in REPORTED:
        raise errors.Unprocessable(f"channel must be one of {', '.join(REPORTED)}.",
                                   details={"channel": f"one of {', '.join(REPORTED)}"})
    return raw


def buckets(span: Window, interval: str) -> list[datetime]:
    """Every bucket start of the window (UTC), the first one holding ``span.start``."""
    step = INTERVALS[interval]
    first = span.start.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0)
    if interval == "day":
        first = first.replace(hour=0)
    out, moment = [], first
    while moment < span.end:
        out.append(moment)
        if len(out) > MAX_BUCKETS[interval]:
            raise errors.Unprocessable(
                f"The window holds more than {MAX_BUCKETS[interval]} {interval} buckets; narrow 'from' and 'to'.",
                details={"from": f"at most {MAX_BUCKETS[interval]} {interval} buckets"})
        moment += step
    return out


async def timeseries(conn: BaseDBAsyncClient, tenant_pk: int, span: Window, interval: str,
                     channel: str | None) -> list[dict[str, Any]]:
    """One point per bucket and channel (empty buckets included), oldest first."""
    starts = buckets(span, interval)
    channels = (channel,) if channel else REPORTED
    # Every row's ``at`` is already its bucket: an hour (hourly counters) or a day.
    source, params = counters(tenant_pk, span, hourly_only=interval == "hour", by_day=interval == "day")
    only = ""
    if channel:
        params.append(channel)
        only = f" WHERE channel = ${len(params)}"
    rows = await conn.execute_query_dict(
        f"SELECT at AS bucket, channel, status, sum(count)::bigint AS n FROM {source}{only} GROUP BY 1, 2, 3", params)
    points = {(start, name): zero() for start in starts for name in channels}
    for row in rows:
        name = _name(row["status"])
        key = (row["bucket"].astimezone(timezone.utc), row["channel"])
        if name is not None and key in points:
            points[key][name] += int(row["n"])
    return [{"Bucket": start, "Channel": name, **points[(start, name)]} for start in starts for name in channels]


async def top_templates(conn: BaseDBAsyncClient, tenant_pk: int, span: Window, limit: int) -> list[dict[str, Any]]:
    """The templates with the most accepted messages in the window (then the most sent, then by slug)."""
    sums = ", ".join(f"COALESCE(sum(count) FILTER (WHERE status = '{status.value}'), 0)::bigint AS \"{name}\""
                     for status, name in COUNT_NAMES.items())
    source, params = counters(tenant_pk, span)
    params.append(limit)
    rows = await conn.execute_query_dict(
        f"SELECT template, {sums} FROM {source} WHERE template <> '' "
        f"GROUP BY template ORDER BY \"Accepted\" DESC, \"Sent\" DESC, template LIMIT ${len(params)}", params)
    out = []
    for row in rows:
        counts = {name: int(row[name]) for name in COUNT_NAMES.values()}
        out.append({"Template": row["template"], **counts, **rates(counts)})
    return out
