"""Turning a configuration error into the one line an operator reads."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

from kit.settings import ConfigError


@contextmanager
def exit_on_config_error() -> Iterator[None]:
    try:
        yield
    except ConfigError as error:
        print(f"herald: configuration error: {error}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
