"""The local SMTP server of the delivery benches (bench/chaos.py, bench/smtp_e2e.py): aiosmtpd in a
process of its own, noting when each Message-ID (and Herald message id) arrived, every time, and
its envelope sender (Herald's VERP return path, docs/bounces.md: where a bounce goes). A
recipient whose local part starts with REFUSED_PREFIX is refused at RCPT with a 5xx, as a mailbox that
does not exist: Herald's hand-off reads that as a hard bounce (docs/bounces.md). On request
(:meth:`Receiver.kill_after_next_accept`, bench/chaos.py's ``outcome`` fault) it SIGKILLs the process
that sent the next message right after answering it 250: that worker dies between the provider's
success and the write of its outcome."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

from bench.stage import free_port

REFUSED_PREFIX = "refused"


class _Arrivals:
    """The aiosmtpd handler in the receiver's process: each message's Message-ID, Herald id and
    arrival time (CLOCK_MONOTONIC, the same clock in every process) go to the bench's process."""

    def __init__(self, queue, kill=None, killed_at=None) -> None:
        self.queue = queue
        self.kill, self.killed_at = kill, killed_at

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
        if self.kill is not None and self.kill.is_set():
            sender = _process_on_port(session.peer[1])
            if sender is not None:
                self.killed_at.value = time.monotonic()
                self.kill.clear()
                # After the 250 has been written (the reply goes out before the loop's next turn).
                asyncio.get_running_loop().call_soon(os.kill, sender, signal.SIGKILL)
        return "250 OK queued"


def _process_on_port(port: int) -> int | None:
    """The process whose local TCP port ``port`` is (the SMTP client at the other end), or None."""
    import psutil

    for connection in psutil.net_connections("tcp4"):
        if connection.laddr and connection.laddr.port == port and connection.pid:
            return connection.pid
    return None


def _serve_smtp(port: int, kill, killed_at, queue) -> None:
    from aiosmtpd.controller import Controller

    Controller(_Arrivals(queue, kill, killed_at), hostname="127.0.0.1", port=port).start()
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
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._kill, self._killed_at = context.Event(), context.Value("d", 0.0)
        super().__init__(_serve_smtp, self.port, self._kill, self._killed_at)

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

    def kill_after_next_accept(self, timeout: float = 60.0) -> float | None:
        """SIGKILL the sender of the next message right after accepting it; when that was
        (CLOCK_MONOTONIC, the receiver's), or None when no message came within ``timeout``."""
        self._kill.set()
        deadline = time.monotonic() + timeout
        while self._kill.is_set() and time.monotonic() < deadline:
            time.sleep(0.005)
        if self._kill.is_set():
            self._kill.clear()
            return None
        return self._killed_at.value

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
