"""Platform metrics as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import TIMESTAMP, reply_of, shape
from app.platform.metrics.service import ALL_CHANNELS
from kit.timestamps import iso

INT = {"type": "integer"}
NUMBER = {"type": "number"}
COUNTS = shape(Accepted=INT, Sent=INT, Delivered=INT, Failed=INT, Bounced=INT, Complained=INT)
RATES = shape(DeliveryRate=NUMBER, BounceRate=NUMBER, ComplaintRate=NUMBER, FailureRate=NUMBER)
CHANNEL = shape(**COUNTS["properties"], **RATES["properties"])
METRICS = reply_of(
    From=TIMESTAMP, To=TIMESTAMP,
    Accounts=shape(Total=INT, Active=INT, Suspended=INT),
    Traffic=shape(Totals=COUNTS, Rates=RATES, ByChannel=shape(**{channel: CHANNEL for channel in ALL_CHANNELS})),
    Queues=shape(Messages=shape(**{channel: shape(Queued=INT, Sending=INT) for channel in ALL_CHANNELS}),
                 Outbox=INT, RelayLagSeconds=NUMBER),
)


def metrics_json(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "From": iso(found["From"]), "To": iso(found["To"])}
