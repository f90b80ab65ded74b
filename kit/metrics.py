"""Herald's own counters: what became of the messages and webhooks, named once here and counted
where each thing happens (docs/observability.md lists them with their labels).

Every label is bounded and says nothing about who sent what: a channel, a provider plug-in's
entry-point name, an outcome from a fixed list. Never an account or tenant id, an address, a
message id or free text: `/metrics` is public on every system (the contract), and a label value
is kept by Prometheus for as long as it keeps the series.

Which process counts what:

- the platform's HTTP process (its `/metrics`): messages accepted, and the returns read from DSNs,
  feedback reports and the relays' event callbacks;
- the worker (its exporter on WORKER_METRICS_PORT): deliveries, provider calls, bounces at
  hand-off, webhook deliveries.

A counter is in the process's registry: with PROMETHEUS_MULTIPROC_DIR set before the process
starts (`herald serve` with several workers; `herald worker`, kit/settings.py: worker_env), its
values go to that folder, where the exporter of those processes reads them.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

NO_PROVIDER = "none"  # a delivery that ended before any provider was chosen (refused, or no plug-in)

MESSAGES_ACCEPTED = Counter(
    "herald_messages_accepted_total",
    "Messages written by the accept path (one per recipient; a replayed idempotent send is not counted)",
    ["channel"])

# outcome: sent | deferred (a transient error: tried again later) | failed | bounced (refused at hand-off)
# | refused (a re-check before the provider: domain no longer verified, suppressed, blocked, over quota)
DELIVERIES = Counter(
    "herald_deliveries_total", "Delivery attempts by what they ended in", ["channel", "provider", "outcome"])

PROVIDER_CALL_SECONDS = Histogram(
    "herald_provider_call_seconds", "Time of one provider call (provider.send), whatever it answered",
    ["channel", "provider"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120))

# kind: hard | soft | complaint (models/platform/returns.py: Kind), whichever way it came back: a DSN,
# a feedback report, a relay's event callback, or an SMTP refusal at hand-off (kind hard).
BOUNCES = Counter("herald_bounces_total", "Bounces and complaints that acted on a message of ours", ["kind"])

DELIVERY_REPORTS = Counter(
    "herald_delivery_reports_total",
    "Reports that the recipient's server accepted an e-mail (a DSN or a relay's delivered event) that moved it")

# outcome: delivered (a 2xx) | retried (failed, another attempt scheduled) | failed (failed, no attempt left)
# | postponed (the endpoint's circuit breaker is open: no request made) | endpoint_disabled (no request made)
WEBHOOK_DELIVERIES = Counter(
    "herald_webhook_deliveries_total", "Webhook delivery attempts by what became of the delivery", ["outcome"])

# result: what the receiver did (models/platform/webhook.py: AttemptOutcome): succeeded, http_error,
# timeout, connection_error, unsafe_target.
WEBHOOK_ATTEMPTS = Counter(
    "herald_webhook_attempts_total", "Webhook requests made, by what the receiver answered", ["result"])
