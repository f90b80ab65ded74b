"""The local SMTP server of the delivery benches (bench/chaos.py, bench/smtp_e2e.py): aiosmtpd in a
process of its own, noting when each Message-ID (and Herald message id) arrived, every time, and
its envelope sender (Herald's VERP return path, docs/bounces.md: where a bounce goes). A
recipient whose local part starts with REFUSED_PREFIX is refused at RCPT with a 5xx, as a mailbox that
does not exist: Herald's hand-off reads that as a hard bounce (docs/bounces.md)."""

from __future__ import annotations

import threading
import time

from bench.stage import free_port

REFUSED_PREFIX = "refused"


class _Arrivals:
    """The aiosmtpd handler in the receiver's process: each message's Message-ID, Herald id and
    arrival time (CLOCK_MONOTONIC, the same clock in every process) go to the bench's process."""

    def __init__(self, queue) -> None:
        self.queue = queue

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith(REFUSED_PREFIX):
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        from email.parser import BytesHeaderParser

        headers = BytesHeaderParser().parsebytes(envelope.original_content or envelope.content)
        self.queue.put((headers.get("Message-ID", ""), headers.get("X-Herald-Message-Id", ""), time.monotonic(),
                        envelope.mail_from or ""))
        return "250 OK queued"


def _serve_smtp(port: int, queue) -> None:
    from aiosmtpd.controller import Controller

    Controller(_Arrivals(queue), hostname="127.0.0.1", port=port).start()
    threading.Event().wait()  # until the bench terminates this process


class ArrivalProcess:
    """A local server in a process of its own (``target(*args, queue)``) that puts what arrives on
    a queue; a thread of the bench's process notes each item (:meth:`_note`, under ``_lock``)."""

    name = "herald-bench-server"

    def __init__(self, target, *args) -> None:
        import multiprocessing

        self._context = multiprocessing.get_context("spawn")
        self._queue = self._context.Queue()
        self._lock = threading.Lock()
        self._target, self._args = target, args
        self._process = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _start_process(self, *more_args) -> None:
        self._process = self._context.Process(target=self._target, args=(*self._args, *more_args, self._queue),
                                              daemon=True, name=self.name)
        self._process.start()
        threading.Thread(target=self._drain, daemon=True, name=f"{self.name}-arrivals").start()

    def stop(self) -> None:
        self._process.terminate()
        self._process.join(10)
        self._queue.put(None)

    def _drain(self) -> None:
        while True:
            try:
                item = self._queue.get()
            except (EOFError, OSError):  # the server's process ended mid-write: nothing more will come
                return
            if item is None:
                return
            with self._lock:
                self._note(*item)

    def _note(self, *item) -> None:
        raise NotImplementedError


class Receiver(ArrivalProcess):
    """The local SMTP server (aiosmtpd) in a process of its own, and when each Message-ID (and
    Herald message id) arrived there, every time. Its own process: in the bench's, it would wait
    for the GIL behind the load generator at every SMTP reply, and the bench would measure its
    own contention (a steady 100/s of single sends delivered about 40/s that way)."""

    name = "herald-bench-smtp"

    def __init__(self) -> None:
        self.arrivals: dict[str, list[float]] = {}
        self.herald_ids: dict[str, str] = {}
        self.return_paths: dict[str, str] = {}  # by Herald message id
        self.port = free_port()
        super().__init__(_serve_smtp, self.port)

    def start(self) -> None:
        import socket

        self._start_process()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the SMTP receiver did not start")

    def _note(self, message_id: str, herald_id: str, at: float, return_path: str) -> None:
        self.arrivals.setdefault(message_id, []).append(at)
        self.herald_ids[message_id] = herald_id
        self.return_paths[herald_id] = return_path

    def return_path(self, herald_id: str) -> str | None:
        """The envelope sender the message ``herald_id`` arrived with, once it has."""
        with self._lock:
            return self.return_paths.get(herald_id)

    def count(self) -> int:
        return len(self.arrivals)

    def snapshot(self) -> tuple[dict[str, list[float]], dict[str, str]]:
        """Copies of ``arrivals`` and ``herald_ids``, safe to iterate while messages keep arriving."""
        with self._lock:
            return {mid: list(times) for mid, times in self.arrivals.items()}, dict(self.herald_ids)
