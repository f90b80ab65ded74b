"""The broker, set up in one place. Importing :mod:`tasks` configures it before any actor exists."""

from __future__ import annotations

import os
from pathlib import Path

import dramatiq
from dramatiq.brokers.redis import RedisBroker

from kit.errors import exit_on_config_error
from kit.settings import Settings, get_settings
from tasks.gauges import Gauges
from tasks.middleware import EventLoopResources, JobLogContext
from tasks.wake import WakeableRedisBroker, heartbeat_timeout_ms
from kit.actors import BROKER_NAMESPACE, Queue, systems_with_outbox


def build_broker(settings: Settings) -> RedisBroker:
    # Woken by a signal rather than polled fast; a dead worker's messages come back within
    # seconds (tasks/wake.py).
    broker = WakeableRedisBroker(url=settings.require_redis_url(), namespace=BROKER_NAMESPACE,
                                 heartbeat_timeout=heartbeat_timeout_ms(settings.worker_poll_ms))
    broker.add_middleware(JobLogContext())
    systems = sorted({"platform", "identity", *systems_with_outbox()})
    broker.add_middleware(EventLoopResources(settings, systems))
    if settings.worker_metrics_port is not None:
        metrics_env = settings.worker_env()
        Path(metrics_env["dramatiq_prom_db"]).mkdir(parents=True, exist_ok=True)
        for name, value in metrics_env.items():  # this process's own gauges write there too
            os.environ.setdefault(name, value)
        from dramatiq.middleware.prometheus import Prometheus

        broker.add_middleware(Prometheus())
        broker.add_middleware(Gauges(settings, [queue.value for queue in Queue], systems))
    if settings.sentry_dsn:
        from sentry_sdk.integrations.dramatiq import DramatiqIntegration

        from kit.observability import init_sentry

        init_sentry(settings, DramatiqIntegration())
    return broker


def setup() -> RedisBroker:
    with exit_on_config_error():
        broker = build_broker(get_settings())
    dramatiq.set_broker(broker)
    return broker


broker = setup()
