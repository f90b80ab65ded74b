"""The request log's rows built in a process of its own, fed the raw captures.

Turning a captured request into its row (redacting both bodies token by token, parsing the answer
for its error code and message ids) was a fifth of the platform process's CPU under a stream of
sends (bench/README.md, "Accept: levers and where the time goes"); the platform serves requests on
one event loop, so that fifth came straight off its rate. The writer (:mod:`.buffer`) therefore
hands each batch of captures to a builder process and gets the rows back:

    python -m app.platform.request_log.builder     (started by the platform process, on first use)

It speaks on its standard input and output, one frame each way per batch: a 4-byte big-endian
length and a pickle (in: the records and the resolved keys; out: the rows). Pickle is safe here:
both ends are this code, over a pipe no one else holds. The process ends when its input closes,
that is when the platform process ends, however it ends; it ignores SIGINT, which a terminal sends
to the whole process group, so the platform's last flush on Ctrl-C can still use it.

When the builder cannot answer (it died, or cannot start), the writer builds the batch in its own
process as before and starts a new builder for the next batch: a record is never lost to it.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import struct
import sys
from pathlib import Path
from typing import Any, BinaryIO

FRAME = struct.Struct(">I")
ROOT = Path(__file__).resolve().parents[3]  # the repository: where ``-m app...`` is found


class Builder:
    """The writer's side: one builder process, started on first use and again after a failure."""

    def __init__(self) -> None:
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def build(self, records: list, keys: dict) -> list[dict[str, Any]]:
        """The rows of ``records`` (see buffer.build_rows); raises when the builder cannot answer."""
        payload = pickle.dumps((records, keys), protocol=pickle.HIGHEST_PROTOCOL)
        async with self._lock:  # one batch at a time on the pipe
            process = await self._running()
            try:
                process.stdin.write(FRAME.pack(len(payload)) + payload)
                await process.stdin.drain()
                (size,) = FRAME.unpack(await process.stdout.readexactly(FRAME.size))
                return pickle.loads(await process.stdout.readexactly(size))
            except BaseException:  # died, or cancelled mid-exchange: the pipe is out of step, start afresh
                self._process = None
                _end(process)
                raise

    async def _running(self) -> asyncio.subprocess.Process:
        if self._process is None or self._process.returncode is not None:
            if self._process is not None:
                _end(self._process)
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", __name__, cwd=ROOT, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE)
        return self._process

    async def close(self) -> None:
        """Ends the builder (after the writer's last flush)."""
        process, self._process = self._process, None
        if process is not None:
            _end(process)
            await process.wait()


def _end(process: asyncio.subprocess.Process) -> None:
    process.stdin.close()  # its input closed: the builder's own way out
    if process.returncode is None:
        process.kill()


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    from app.platform.request_log.buffer import build_rows

    while True:
        head = stdin.read(FRAME.size)
        if len(head) < FRAME.size:
            return  # the platform process has gone
        (size,) = FRAME.unpack(head)
        records, keys = pickle.loads(stdin.read(size))
        rows = pickle.dumps(build_rows(records, keys), protocol=pickle.HIGHEST_PROTOCOL)
        stdout.write(FRAME.pack(len(rows)) + rows)
        stdout.flush()


if __name__ == "__main__":
    # Nothing of the platform's but the pipes: an inherited descriptor (its listening socket, which
    # the server makes inheritable for its workers) would outlive the platform in this process.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(sys.stdin.buffer, sys.stdout.buffer)
