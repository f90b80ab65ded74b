"""The HTTP systems of Herald: their names, default ports and the paths each one owns.

This table is the one place that knows which system serves which path, so a 404 on one
system can tell the caller which system the path belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class System:
    name: str
    title: str
    default_port: int
    # Path prefixes that belong to this system (used for "wrong system" hints).
    prefixes: tuple[str, ...]
    # Whether the system has a database of its own (the console owns no data: docs/console.md).
    database: bool = True


PLATFORM = System(
    "platform",
    "Herald platform API",
    8000,
    (
        "/v1/emails", "/v1/sms", "/v1/push", "/v1/whatsapp", "/v1/senders", "/v1/account", "/v1/logs",
        "/v1/webhooks", "/v1/events", "/callbacks/", "/api/",
    ),
)
IDENTITY = System(
    "identity",
    "Herald identity server",
    8001,
    (
        "/.well-known/", "/authorize", "/token", "/userinfo", "/logout", "/v1/auth/", "/v1/2fa/", "/v1/users",
        "/v1/authz/", "/v1/tenants/", "/v1/passkeys", "/v1/clients",
    ),
)
CRM = System(
    "crm",
    "Herald CRM",
    8002,
    (
        "/v1/alertas", "/v1/configuracoes/retencao", "/v1/contatos", "/v1/destinos", "/v1/integracoes-de-conversao",
        "/v1/jornadas", "/v1/segmentos", "/v1/uso", "/v1/listas",
    ),
)
PAGES = System(
    "pages",
    "Herald pages",
    8003,
    (
        "/v1/configuracoes/marca", "/v1/dominios", "/v1/formularios", "/v1/ia/", "/v1/midias", "/v1/public/midias",
        "/v1/paginas", "/v1/redirects", "/internal/v1/formularios", "/internal/v1/paginas", "/internal/v1/redirects",
        "/internal/v1/tls", "/tls/ask",
    ),
)
RUNTIME = System(
    "runtime",
    "Herald publishing runtime",
    8004,
    (
        "/pixel.js", "/collect", "/replay", "/v1/forms/", "/v1/leads", "/robots.txt", "/sitemap.xml",
        "/v1/analytics", "/v1/pixels", "/v1/replay",
    ),
)

# The contract's "mail API" at {mail_url}: organizations, sending domains, mailboxes, POST /v1/emails.
# (POST /v1/emails itself shares its prefix with the platform's /v1/emails/*, which owns the hint.)
MAIL = System(
    "mail",
    "Herald mail API",
    8006,
    ("/v1/organizations", "/v1/domains", "/v1/mailboxes", "/internal/v1/mailboxes"),
)

# The web console for people (docs/console.md): pages of its own at /, no database, no /v1 of its own.
CONSOLE = System("console", "Herald console", 8005, (), database=False)

SYSTEMS: tuple[System, ...] = (PLATFORM, IDENTITY, CRM, PAGES, RUNTIME, CONSOLE, MAIL)
# The systems with a database of their own: what is created, migrated and dropped.
DATA_SYSTEMS: tuple[System, ...] = tuple(system for system in SYSTEMS if system.database)


def _matches(path: str, prefix: str) -> bool:
    if prefix.endswith("/"):
        return path.startswith(prefix) or path == prefix[:-1]
    return path == prefix or path.startswith(prefix + "/")


def owner_of(path: str) -> System | None:
    """The system whose routes include ``path``, judged by the longest matching prefix."""
    matches = [(len(prefix), system) for system in SYSTEMS for prefix in system.prefixes if _matches(path, prefix)]
    return max(matches, key=lambda match: match[0])[1] if matches else None
