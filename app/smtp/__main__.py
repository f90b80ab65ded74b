"""``python -m app.smtp``: the process ``herald smtpd`` execs (herald/roles.py)."""

from __future__ import annotations

import asyncio

from app.smtp.server import serve
from kit import logs
from kit.errors import exit_on_config_error
from kit.settings import get_settings


def main() -> None:
    with exit_on_config_error():
        settings = get_settings()
        settings.require_service_token()
        settings.require_redis_url()
    logs.setup(settings, role="smtpd")
    asyncio.run(serve(settings))


if __name__ == "__main__":
    main()
