"""Configuration: read from the environment once, validated, frozen.

Every process calls :func:`get_settings` (or :func:`load_settings` with an explicit
mapping in tests). A missing or malformed value raises :class:`ConfigError`, whose
message is one line naming the variable; entry points print it and exit 2.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping
from urllib.parse import urlsplit, urlunsplit

from importlib import metadata

from kit import config_values as read
from kit.config_values import ConfigError
from kit.systems import DATA_SYSTEMS, SYSTEMS, System


@dataclass(frozen=True)
class Settings:
    env: str
    var_dir: Path
    database_url: str | None
    database_urls: dict[str, str]
    redis_url: str | None
    # SECRET_KEY's newest key (what seals and signs); secret_keys: every listed key, newest first
    # (what opens and verifies), so the key can be rotated on a running stack (docs/operations.md).
    secret_key: str | None
    sentry_dsn: str | None
    host: str
    ports: dict[str, int]
    http_workers: int
    worker_processes: int
    worker_threads: int
    version: str
    commit: str
    log_level: str
    rate_limit: int
    rate_limit_window: int
    service_token: str | None
    providers: dict[str, str]
    delivery_lease_seconds: int
    reconcile_after_seconds: int
    public_urls: dict[str, str]
    worker_metrics_port: int | None
    # Where the other systems call each system (<SYSTEM>_INTERNAL_URL, default its public URL): in a
    # container network the public address (a load balancer, TLS) is not the one a neighbour reaches.
    internal_urls: dict[str, str] = field(default_factory=dict)
    # Providers (docs/providers.md): platform default configuration per channel, the platform's mail
    # domain (SPF include, return path), the nameservers sender domains are verified against.
    provider_configs: dict[str, dict] = field(default_factory=dict)
    mail_domain: str = "herald.test"
    dns_nameservers: tuple[str, ...] = ()
    # Webhooks may reach loopback receivers (development and tests only; on by default with HERALD_ENV=test).
    webhooks_allow_loopback: bool = False
    # Amazon SNS signing certificates the operator pins (docs/relays.md): <sha256 of the URL>.pem files.
    sns_certificate_dir: Path | None = None
    # How long an idle worker waits on an empty queue before polling again: bounds pick-up latency.
    worker_poll_ms: int = 2000
    # The systems whose outbox this scheduler relays (empty: every system with an outbox), so a
    # system's relay can run in a scheduler of its own (next to its database, or scaled alone).
    relay_systems: tuple[str, ...] = ()
    # Connections each process may open to a system's database (PostgreSQL's own limit is shared).
    database_pool_max: int = 20
    # The runtime's live stream (docs/runtime.md): seconds between SSE heartbeats, and how many
    # streams one account may hold open at once.
    runtime_sse_heartbeat_seconds: int = 15
    runtime_live_streams: int = 5
    runtime_collect_per_address: int = 1200  # /collect and /replay batches per client address per minute; 0: off
    # MiB a minute one pixel credential may publish (models/runtime/stream.py CREDENTIAL_BYTES_PER_MINUTE)
    runtime_collect_credential_mib: int = 32
    # The Redis of the runtime's collection streams (STREAMS_REDIS_URL): the edge's publisher, `herald
    # consume`, the live stream; None: REDIS_URL's. A server of its own keeps a flood of collection
    # away from the job broker.
    streams_redis: str | None = None
    # Requests per minute one client address may make to the identity server's auth endpoints.
    auth_ip_limit: int = 1000
    # Sign-ups, and separately e-mail changes, one client address may make per hour (identity server).
    account_ip_limit: int = 20
    # bcrypt's work factor for new password hashes. The contract's minimum is 12; lower only under
    # HERALD_ENV=test (as Rails' SecurePassword.min_cost in tests): a test that signs a person up does
    # not test bcrypt, and at 12 the hashes were half of the fast test tier's CPU.
    password_hash_cost: int = 12
    # Password-reset requests and recovery steps one client address may make per hour (identity server).
    recovery_ip_limit: int = 20
    # E-mailed sign-in and confirmation codes one client address may have sent per hour (identity server).
    email_code_ip_limit: int = 30
    # The identity server's e-mail (docs/identity.md): an API key with email:send of the operator's
    # tenant and a sender address on a verified domain of it (`herald up` makes both by default).
    identity_mail_key: str | None = None
    identity_mail_from: str | None = None
    # Origins (scheme://host[:port]) besides PLATFORM_URL's whose cookie-authenticated writes the
    # dashboard surface accepts (docs/dashboard.md, CSRF).
    dashboard_origins: tuple[str, ...] = ()
    # The WebAuthn relying party id (docs/console.md, "Passkeys"): a registrable suffix of the
    # console's and the identity server's hosts; none: the identity server's host. Changing it
    # orphans every passkey registered under the old one.
    webauthn_rp_id: str | None = None
    # AI page generation (docs/pages.md): an OpenAI-compatible chat API; no base URL, no generation (503).
    ai_base_url: str | None = None
    ai_api_key: str | None = None
    ai_model: str = "gpt-4o-mini"
    # The AI plug-in: an entry-point name in the group herald.providers.ai (setup.cfg).
    ai_provider: str = "openai"
    # The ad platforms the CRM's conversion integrations call (docs/crm.md); tests point them at local servers.
    meta_graph_url: str = "https://graph.facebook.com"
    meta_graph_version: str = "v21.0"
    ga4_mp_url: str = "https://www.google-analytics.com"
    # Herald's SMTP server (`herald smtpd`, docs/smtp.md): receiving (25 in production), submission
    # (587, STARTTLS) and implicit TLS (465; 0: off, and off without a certificate); PEM files of the
    # certificate and its key; the name it greets with. A mailbox holds MAILBOX_QUOTA_MB of received mail.
    smtp_receive_port: int = 2525
    smtp_submission_port: int = 2587
    smtp_tls_port: int = 2465
    smtp_tls_cert: str | None = None
    smtp_tls_key: str | None = None
    smtp_hostname: str = "localhost"
    # Per client address: connections open at once, and failed AUTH in a quarter of an hour.
    smtp_connections_per_address: int = 10
    smtp_auth_failures_per_address: int = 5
    mailbox_quota_mb: int = 1024
    # How every process writes its log (kit/logs.py, docs/observability.md): "json" lines (the default
    # with HERALD_ENV=production) or readable "text" (otherwise); LOG_FORMAT overrides either.
    log_format: str = "text"
    secret_keys: tuple[str, ...] = ()

    def worker_env(self) -> dict[str, str]:
        """Environment of a `dramatiq` worker process. Dramatiq reads these at import, and its
        metrics exporter runs in a process forked from the CLI's main process (which never
        imports our broker module), so they must be in place before the CLI starts."""
        env = {"dramatiq_worker_timeout": str(self.worker_poll_ms)}
        if self.worker_metrics_port is None:
            return env
        metrics_dir = str(self.var_dir / "worker-metrics")
        return {
            **env,
            "dramatiq_prom_db": metrics_dir,
            "PROMETHEUS_MULTIPROC_DIR": metrics_dir,
            "dramatiq_prom_host": self.host,
            "dramatiq_prom_port": str(self.worker_metrics_port),
        }

    @property
    def embedded_database(self) -> bool:
        return self.database_url is None and not self.database_urls

    @property
    def embedded_redis(self) -> bool:
        return self.redis_url is None

    def database_url_for(self, system: str) -> str:
        """The URL of one system's database: its own override, else DATABASE_URL with the
        database name replaced by ``herald_<system>``."""
        if system in self.database_urls:
            return self.database_urls[system]
        if self.database_url is None:
            raise ConfigError("DATABASE_URL", "is required (or run `herald up` for the embedded default)")
        return replace_database(self.database_url, f"herald_{system}")

    def require_secret_key(self) -> str:
        """The newest key: what seals and signs."""
        if not self.secret_key:
            raise ConfigError("SECRET_KEY", "is required (at least 32 characters)")
        return self.secret_key

    def require_secret_keys(self) -> tuple[str, ...]:
        """Every listed key, newest first: what opens and verifies."""
        self.require_secret_key()
        return self.secret_keys or (self.secret_key,)

    def require_service_token(self) -> str:
        if not self.service_token:
            raise ConfigError("SERVICE_TOKEN", "is required (at least 32 characters)")
        return self.service_token

    def url_of(self, system: str) -> str:
        """``system``'s public base URL (<SYSTEM>_URL): what people and browsers see, so e-mail links,
        passkey origins, the OAuth issuer, CORS origins and snippets shown to users. Another system
        calling it uses :meth:`internal_url_of`."""
        return self.public_urls[system]

    def internal_url_of(self, system: str) -> str:
        """Base URL at which the other systems call ``system``: <SYSTEM>_INTERNAL_URL, else its public URL."""
        return self.internal_urls.get(system) or self.public_urls[system]

    def require_redis_url(self) -> str:
        if not self.redis_url:
            raise ConfigError("REDIS_URL", "is required (or run `herald up` for the embedded default)")
        return self.redis_url

    @property
    def streams_redis_url(self) -> str | None:
        """The Redis of the runtime's streams: STREAMS_REDIS_URL, else REDIS_URL."""
        return self.streams_redis or self.redis_url

    def require_streams_redis_url(self) -> str:
        return self.streams_redis or self.require_redis_url()


def replace_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def installed_version() -> str:
    """The installed package's version (``herald.__version__``, which setup.cfg reads), so a release
    reports itself without a build argument; "dev" only where Herald is not installed."""
    try:
        return metadata.version("herald")
    except metadata.PackageNotFoundError:
        return "dev"


def secret_key_list(value: str | None) -> tuple[str, ...]:
    """SECRET_KEY as its keys, newest first: one key, or a comma-separated list while a key is
    being rotated (docs/operations.md, "Rotating SECRET_KEY")."""
    if value is None:
        return ()
    if "," not in value:  # taken exactly as it always was: a key that changed by a space would open nothing
        if len(value) < 32:
            raise ConfigError("SECRET_KEY", "must be at least 32 characters")
        return (value,)
    keys = tuple(key.strip() for key in value.split(","))
    for position, key in enumerate(keys, 1):
        if len(key) < 32:
            raise ConfigError("SECRET_KEY",
                              f"key {position} of the comma-separated list must be at least 32 characters")
    if len(set(keys)) != len(keys):
        raise ConfigError("SECRET_KEY", "lists the same key twice")
    return keys


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env

    def text(name: str) -> str | None:
        value = env.get(name)
        return value if value else None

    database_url = text("DATABASE_URL")
    if database_url:
        database_url = read.postgres_url("DATABASE_URL", database_url)
    database_urls = {}
    for system in DATA_SYSTEMS:
        name = f"{system.name.upper()}_DATABASE_URL"
        if value := text(name):
            database_urls[system.name] = read.postgres_url(name, value)

    redis_url = text("REDIS_URL")
    if redis_url:
        redis_url = read.redis_url("REDIS_URL", redis_url)
    streams_redis = text("STREAMS_REDIS_URL")
    if streams_redis:
        streams_redis = read.redis_url("STREAMS_REDIS_URL", streams_redis)

    secret_keys = secret_key_list(text("SECRET_KEY"))

    service_token = text("SERVICE_TOKEN")
    if service_token is not None and len(service_token) < 32:
        raise ConfigError("SERVICE_TOKEN", "must be at least 32 characters")

    herald_env = env.get("HERALD_ENV", "development")
    if herald_env not in ("development", "production", "test"):
        raise ConfigError("HERALD_ENV", "must be development, production or test")

    password_hash_cost = read.whole_number(env, "PASSWORD_HASH_COST", 12, 4, 31)
    if password_hash_cost < 12 and herald_env != "test":
        raise ConfigError("PASSWORD_HASH_COST", "must be at least 12 (the contract's minimum) but with HERALD_ENV=test")

    log_level = env.get("LOG_LEVEL", "INFO").upper()
    if log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("LOG_LEVEL", "must be DEBUG, INFO, WARNING or ERROR")
    log_format = (env.get("LOG_FORMAT") or ("json" if herald_env == "production" else "text")).strip().lower()
    if log_format not in ("json", "text"):
        raise ConfigError("LOG_FORMAT", "must be json or text")

    ports = {
        system.name: read.whole_number(env, f"{system.name.upper()}_PORT", system.default_port, 1, 65535) for system in SYSTEMS
    }

    host = env.get("HERALD_HOST", "127.0.0.1")
    public_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    public_urls, internal_urls = {}, {}
    for system in SYSTEMS:
        name = f"{system.name.upper()}_URL"
        public_urls[system.name] = read.http_url(name, text(name) or f"http://{public_host}:{ports[system.name]}",
                                             "https://auth.example.com")
        name = f"{system.name.upper()}_INTERNAL_URL"
        value = text(name)
        internal_urls[system.name] = (read.http_url(name, value, f"http://{system.name}:{ports[system.name]}")
                                      if value else public_urls[system.name])

    return Settings(
        env=herald_env,
        var_dir=Path(env.get("HERALD_VAR_DIR", "var")).resolve(),
        database_url=database_url,
        database_urls=database_urls,
        redis_url=redis_url,
        secret_key=secret_keys[0] if secret_keys else None,
        secret_keys=secret_keys,
        sentry_dsn=text("SENTRY_DSN"),
        host=host,
        ports=ports,
        http_workers=read.whole_number(env, "HTTP_WORKERS", 1, 1, 64),
        worker_processes=read.whole_number(env, "WORKER_PROCESSES", 1, 1, 64),
        worker_threads=read.whole_number(env, "WORKER_THREADS", 8, 1, 256),
        version=env.get("HERALD_VERSION") or installed_version(),
        commit=env.get("HERALD_COMMIT") or "dev",
        log_level=log_level,
        log_format=log_format,
        rate_limit=read.whole_number(env, "RATE_LIMIT", 100, 1, 10_000_000),
        rate_limit_window=read.whole_number(env, "RATE_LIMIT_WINDOW", 1, 1, 86_400),
        service_token=service_token,
        providers={channel: env.get(f"{channel.upper()}_PROVIDER") or "sink"
                   for channel in ("email", "sms", "push", "whatsapp")},
        # Renewed every third of itself while the provider call runs (tasks/platform/delivery.py): it bounds
        # how long a message killed mid-delivery waits, not how long a delivery may take.
        delivery_lease_seconds=read.whole_number(env, "DELIVERY_LEASE_SECONDS", 15, 10, 3600),
        reconcile_after_seconds=read.whole_number(env, "RECONCILE_AFTER_SECONDS", 300, 1, 86_400),
        public_urls=public_urls,
        internal_urls=internal_urls,
        # 0 turns the worker metrics exporter off.
        worker_metrics_port=read.whole_number(env, "WORKER_METRICS_PORT", 9191, 0, 65535) or None,
        # The longest idle poll: new messages wake the workers at once (tasks/wake.py).
        worker_poll_ms=read.whole_number(env, "WORKER_POLL_MS", 2000, 10, 10_000),
        database_pool_max=read.whole_number(env, "DATABASE_POOL_MAX", 20, 1, 1000),
        auth_ip_limit=read.whole_number(env, "AUTH_IP_LIMIT", 1000, 1, 10_000_000),
        account_ip_limit=read.whole_number(env, "ACCOUNT_IP_LIMIT", 20, 1, 10_000_000),
        password_hash_cost=password_hash_cost,
        recovery_ip_limit=read.whole_number(env, "RECOVERY_IP_LIMIT", 20, 1, 10_000_000),
        email_code_ip_limit=read.whole_number(env, "EMAIL_CODE_IP_LIMIT", 30, 1, 10_000_000),
        provider_configs={channel: read.json_object(env, f"{channel.upper()}_PROVIDER_CONFIG")
                          for channel in ("email", "sms", "push", "whatsapp")},
        mail_domain=(text("MAIL_DOMAIN") or "herald.test").lower().rstrip("."),
        dns_nameservers=tuple(server.strip() for server in (text("DNS_NAMESERVERS") or "").split(",")
                              if server.strip()),
        webhooks_allow_loopback=read.flag(env, "WEBHOOKS_ALLOW_LOOPBACK", herald_env == "test"),
        sns_certificate_dir=Path(env.get("SNS_CERTIFICATE_DIR")
                                 or Path(env.get("HERALD_VAR_DIR", "var")) / "sns-certificates").resolve(),
        identity_mail_key=text("IDENTITY_MAIL_KEY"),
        identity_mail_from=text("IDENTITY_MAIL_FROM"),
        dashboard_origins=read.origins(env, "DASHBOARD_ORIGINS"),
        webauthn_rp_id=read.relying_party_id("WEBAUTHN_RP_ID", text("WEBAUTHN_RP_ID"), {
            "the console": urlsplit(public_urls["console"]).hostname,
            "the identity server": urlsplit(public_urls["identity"]).hostname}),
        ai_base_url=(text("AI_BASE_URL") or "").rstrip("/") or None,
        ai_api_key=text("AI_API_KEY"),
        ai_model=text("AI_MODEL") or "gpt-4o-mini",
        ai_provider=text("AI_PROVIDER") or "openai",
        meta_graph_url=(text("META_GRAPH_URL") or "https://graph.facebook.com").rstrip("/"),
        meta_graph_version=text("META_GRAPH_VERSION") or "v21.0",
        ga4_mp_url=(text("GA4_MP_URL") or "https://www.google-analytics.com").rstrip("/"),
        relay_systems=read.outbox_systems(env, "RELAY_SYSTEMS"),
        runtime_sse_heartbeat_seconds=read.whole_number(env, "RUNTIME_SSE_HEARTBEAT_SECONDS", 15, 1, 50),  # < RESPONSE_TIMEOUT
        runtime_live_streams=read.whole_number(env, "RUNTIME_LIVE_STREAMS", 5, 1, 10_000),
        runtime_collect_per_address=read.whole_number(env, "RUNTIME_COLLECT_PER_ADDRESS", 1200, 0, 10_000_000),
        runtime_collect_credential_mib=read.whole_number(env, "RUNTIME_COLLECT_CREDENTIAL_MIB", 32, 1, 65_536),
        streams_redis=streams_redis,
        smtp_receive_port=read.whole_number(env, "SMTP_RECEIVE_PORT", 2525, 1, 65535),
        smtp_submission_port=read.whole_number(env, "SMTP_SUBMISSION_PORT", 2587, 1, 65535),
        smtp_tls_port=read.whole_number(env, "SMTP_TLS_PORT", 2465, 0, 65535),
        smtp_tls_cert=text("SMTP_TLS_CERT"),
        smtp_tls_key=text("SMTP_TLS_KEY"),
        smtp_hostname=text("SMTP_HOSTNAME") or "localhost",
        smtp_connections_per_address=read.whole_number(env, "SMTP_CONNECTIONS_PER_ADDRESS", 10, 1, 100_000),
        smtp_auth_failures_per_address=read.whole_number(env, "SMTP_AUTH_FAILURES_PER_ADDRESS", 5, 1, 100_000),
        mailbox_quota_mb=read.whole_number(env, "MAILBOX_QUOTA_MB", 1024, 1, 10_000_000),
    )


class _ReadRecorder(Mapping[str, str]):
    """A view of an environment that remembers which names were looked up."""

    def __init__(self, env: Mapping[str, str]):
        self.env = env
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> str:
        self.read.add(name)
        return self.env[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.env)

    def __len__(self) -> int:
        return len(self.env)


def settings_variables(env: Mapping[str, str]) -> set[str]:
    """The names :func:`load_settings` reads: what `herald up` records for the other commands
    (herald/stack.py), and always the whole list, however many settings are added later."""
    recorder = _ReadRecorder(env)
    load_settings(recorder)
    return recorder.read


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return load_settings()


def system_by_name(name: str) -> System:
    for system in SYSTEMS:
        if system.name == name:
            return system
    raise ConfigError("system", f"unknown system {name!r}; one of {', '.join(s.name for s in SYSTEMS)}")
