"""``python -m herald.worker``: the process `herald worker` execs (herald/roles.py): Dramatiq's own
command line for the ``tasks`` package, after Herald's logging set-up (kit/logs.py).

Dramatiq's command line would configure logging itself, in a format of its own, in its parent
process and in each worker process it forks. With ``--skip-logging`` it leaves that alone: the
parent's set-up is inherited by the forked worker processes, whose writes reach the parent through
the pipe Dramatiq puts in place of their standard output (the handler looks it up at each write).
This module imports no actor: the parent builds no broker, only its worker processes do.
"""

from __future__ import annotations

import sys

from dramatiq.cli import main as dramatiq_main, make_argument_parser

from kit import logs
from kit.errors import exit_on_config_error
from kit.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    with exit_on_config_error():
        settings = get_settings()
    logs.setup(settings, role="worker")
    args = make_argument_parser().parse_args(["tasks", "--skip-logging", *(sys.argv[1:] if argv is None else argv)])
    return dramatiq_main(args)


if __name__ == "__main__":
    sys.exit(main())
