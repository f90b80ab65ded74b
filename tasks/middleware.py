"""Worker resources, opened and closed by Dramatiq middleware (never at import).

- :class:`EventLoopResources`: Dramatiq's AsyncIO middleware (async actors run on one event
  loop per worker process) plus what lives on that loop: Tortoise, opened once the loop runs
  and closed after running actors have finished, before the loop stops.
- :class:`JobLogContext`: each message's logging context (kit/logs.py): every line an actor writes
  names its job (the message id), its actor and, when the message carries one, the request id.
"""

from __future__ import annotations

import dramatiq
from dramatiq.asyncio import get_event_loop_thread
from dramatiq.middleware import AsyncIO

from kit import logs
from kit.settings import Settings


class EventLoopResources(AsyncIO):
    def __init__(self, settings: Settings, systems: list[str]):
        super().__init__()
        self.settings = settings
        self.systems = systems

    def before_worker_boot(self, broker, worker):
        super().before_worker_boot(broker, worker)
        from tortoise import Tortoise

        from models import tortoise_config

        config = tortoise_config(self.settings, self.systems, pool_max=max(4, worker.worker_threads))
        # Tortoise keeps its state in a context variable; the global fallback lets every actor
        # coroutine (each in its own task) see the connections opened here.
        get_event_loop_thread().run_coroutine(Tortoise.init(config=config, _enable_global_fallback=True))
        # Load the provider plug-ins now: a broken or duplicate one stops the worker at start.
        from tasks.platform.delivery import providers

        providers()

    def after_worker_shutdown(self, broker, worker):
        from tortoise import Tortoise

        from tasks.platform.delivery import providers

        loop_thread = get_event_loop_thread()
        if loop_thread is not None:
            loop_thread.run_coroutine(providers().close())
            loop_thread.run_coroutine(Tortoise.close_connections())
        super().after_worker_shutdown(broker, worker)


class JobLogContext(dramatiq.Middleware):
    """Runs in the worker thread before the actor: an async actor's coroutine is handed to the event
    loop from that thread, and its task inherits the context set here."""

    def before_process_message(self, broker, message):
        logs.start(job=message.message_id, actor=message.actor_name, request_id=message.options.get("request_id"))

    def after_process_message(self, broker, message, *, result=None, exception=None):
        logs.clear()

    def after_skip_message(self, broker, message):
        logs.clear()
