"""Render processes: message templates render off the event loop, in child processes that are
killed when a render passes its deadline.

The budget of :mod:`kit.sandbox` bounds what a template can ask for; what it cannot see (a
filter's own CPU on a large value) is stopped here. Each process that renders (an HTTP worker of
the platform) keeps a small pool of WORKERS render processes, started on first use from a
fresh interpreter (``python -m kit.render_pool``):

- a render is sent to an idle process over its stdin as one JSON line and its answer read from
  its stdout by asyncio: the loop never blocks on it, so ``/healthz`` and every other request keep being answered;
- past DEADLINE_SECONDS the process is killed (SIGKILL: a render in C code cannot be interrupted
  otherwise), :class:`RenderTimeout` is raised and a fresh process takes its place on next use;
- a render process may not grow past MEMORY_BYTES of address space (``RLIMIT_AS``): an allocation
  beyond it is a ``MemoryError`` inside the render, reported as a budget overrun, never an
  out-of-memory kill of the machine;
- when every process is busy, a render waits for one (each is busy for at most the deadline).

A request that is cancelled while its render runs kills that process too (its state is unknown).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import weakref
from typing import Any

DEADLINE_SECONDS = 2.0
WORKERS = 2
MEMORY_BYTES = 768 * 1024 * 1024
# One answer is at most three parts of 1,000,000 characters, up to 4 bytes each in UTF-8.
_LINE_LIMIT = 16 * 1024 * 1024


class RenderTimeout(Exception):
    """The render passed its deadline; its process was killed."""


class RenderCrashed(Exception):
    """The render process died before answering (killed from outside, or out of memory in C)."""


def serve(memory_bytes: int, parent: int) -> None:
    """A render process: one JSON job per line on stdin (the name of one of
    :data:`kit.sandbox.JOBS` and its arguments), one JSON answer per line on stdout."""
    import resource

    from kit.sandbox import JOBS

    _die_with_parent(parent)
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    for line in sys.stdin.buffer:  # ends when the parent goes away
        try:
            name, *arguments = json.loads(line)
            answer = JOBS[name](*arguments)
        except MemoryError:
            answer = {"error": {"kind": "budget", "part": "", "reason": "more memory than a render may use"}}
        except Exception as error:  # noqa: BLE001 - answered, so the process lives on for the next job
            answer = {"error": {"kind": "failed", "part": "", "reason": type(error).__name__}}
        sys.stdout.buffer.write(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
        sys.stdout.buffer.flush()


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when its parent dies, even mid-render (the parent enforces the
    deadline; without it a render could run on for minutes). Elsewhere the closed stdin ends it
    after the render at hand."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if parent and os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)


class _Worker:
    """One render process: ``python -m kit.render_pool`` (a fresh interpreter, so nothing of the
    parent (its event loop, its sockets, its main module) is carried into it)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, memory_bytes: int) -> _Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "kit.render_pool", str(memory_bytes), str(os.getpid()),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=_LINE_LIMIT)
        return cls(process)

    async def exchange(self, job: list[Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job, ensure_ascii=False).encode() + b"\n")
        try:
            await self.process.stdin.drain()
            line = await self.process.stdout.readline()
        except (ConnectionError, asyncio.LimitOverrunError, ValueError):
            raise RenderCrashed("the render process is gone") from None
        if not line:
            raise RenderCrashed("the render process died")
        return json.loads(line)

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        # Reaped by asyncio's child watcher; nothing to wait for on the event loop.


class RenderPool:
    """At most ``size`` render processes; :meth:`render` runs one job under ``deadline`` seconds."""

    def __init__(self, size: int = WORKERS, deadline: float = DEADLINE_SECONDS,
                 memory_bytes: int = MEMORY_BYTES) -> None:
        self.size = size
        self.deadline = deadline
        self.memory_bytes = memory_bytes
        self._slots = asyncio.Semaphore(size)
        self._idle: list[_Worker] = []
        self.started = 0  # processes started so far (tests read them)
        self.killed = 0

    async def render(self, *job: Any) -> Any:
        async with self._slots:
            worker = self._idle.pop() if self._idle else await self._start()
            try:
                answer = await asyncio.wait_for(worker.exchange(list(job)), self.deadline)
            except asyncio.TimeoutError:
                self._kill(worker)
                raise RenderTimeout(f"the render took longer than {self.deadline:g} s") from None
            except BaseException:  # crashed, or the request was cancelled mid-render: state unknown
                self._kill(worker)
                raise
            self._idle.append(worker)
            return answer

    async def _start(self) -> _Worker:
        worker = await _Worker.start(self.memory_bytes)
        self.started += 1
        return worker

    def _kill(self, worker: _Worker) -> None:
        self.killed += 1
        worker.kill()

    async def aclose(self) -> None:
        """Stop the idle render processes and wait for them (a busy one is killed by its render)."""
        idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
            await worker.process.wait()


# One pool per event loop of the process (a Sanic worker has one; a test may run several loops).
_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RenderPool] = weakref.WeakKeyDictionary()


def pool() -> RenderPool:
    loop = asyncio.get_running_loop()
    found = _POOLS.get(loop)
    if found is None:
        found = _POOLS[loop] = RenderPool()
    return found


async def render(channel: str, parts: dict[str, str | None], variables: dict[str, Any],
                 trial: bool = False) -> dict[str, Any]:
    """:func:`kit.sandbox.render_parts` in a render process, under the deadline."""
    return await pool().render("render", channel, parts, variables, trial)


async def vet(channel: str, parts: dict[str, str | None]) -> dict[str, Any]:
    """:func:`kit.sandbox.vet_parts` in a render process, under the deadline."""
    return await pool().render("vet", channel, parts)


async def inspect(parts: dict[str, str | None]) -> dict[str, Any]:
    """:func:`kit.sandbox.inspect_parts` in a render process, under the deadline."""
    return await pool().render("inspect", parts)


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else MEMORY_BYTES, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
