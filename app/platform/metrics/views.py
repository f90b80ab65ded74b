"""Platform metrics as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import TIMESTAMP, described, reply_of, shape
from app.platform.metrics.service import ALL_CHANNELS
from app.platform.report.views import COUNT_TEXT, RATE_TEXT
from kit.timestamps import iso

INT = {"type": "integer"}
NUMBER = {"type": "number"}
COUNTS = shape(**{name: described(INT, text) for name, text in COUNT_TEXT.items()})
RATES = shape(**{name: described(NUMBER, text) for name, text in RATE_TEXT.items()})
CHANNEL = shape(**COUNTS["properties"], **RATES["properties"])
_DEPTH = shape(Queued=described(INT, "Messages waiting to be sent (queued)."),
               Sending=described(INT, "Messages being sent."))
METRICS = reply_of(
    From=described(TIMESTAMP, "The window's start (inclusive)."),
    To=described(TIMESTAMP, "The window's end (exclusive)."),
    Accounts=described(shape(Total=described(INT, "Every account."), Active=described(INT, "Accounts active."),
                             Suspended=described(INT, "Accounts not active.")), "Accounts by status, now."),
    Traffic=described(shape(
        Totals=described(COUNTS, "The window's live-mode counts over every account and channel."),
        Rates=described(RATES, "The rates of those totals."),
        ByChannel=described(shape(**{channel: described(CHANNEL, f"The {channel} counts and rates.")
                                     for channel in ALL_CHANNELS}), "Counts and rates per channel.")),
        "Messages over the window, from the report counters."),
    Queues=described(shape(
        Messages=described(shape(**{channel: described(_DEPTH, f"The {channel} messages waiting or being sent.")
                                    for channel in ALL_CHANNELS}), "Queue depths per channel, now."),
        Outbox=described(INT, "Outbox rows not yet relayed."),
        RelayLagSeconds=described(NUMBER, "The age in seconds of the oldest outbox row not yet relayed (0 when none "
                                          "waits).")), "What waits, now."),
)

def metrics_json(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "From": iso(found["From"]), "To": iso(found["To"])}
