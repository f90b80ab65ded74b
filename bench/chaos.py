"""`make chaos` (`python -m bench.chaos`): messages of the four channels and one relay through faults,
nothing lost.

Sends --messages messages (10,000) at a steady --rate, taking --channels in turn (e-mail, SMS, push,
WhatsApp: `POST /v1/<channel>/send`, one recipient each; ``relay``: e-mail of a second account) with
live keys. E-mail goes from a verified sender domain over SMTP with DKIM to a local aiosmtpd receiver
that counts every message it accepts by Message-ID; SMS, push and WhatsApp go through the platform's
Twilio, FCM and WhatsApp Cloud providers to local servers speaking those protocols
(bench/http_receiver.py, the provider tests' server), which count every call by its recipient (each
message has its own). The ``relay`` account has its own e-mail provider, Resend, set through the
providers API (``PUT /v1/providers/email/resend``) towards a local server speaking Resend's API
(bench/relay_receiver.py), which counts each message once per Idempotency-Key and posts its signed
``email.delivered`` event back to the account's callback during the chaos: those messages must
end ``delivered``, moved by the events. Bounces: one e-mail in --bounce-every (50: 2 %) goes to a
recipient the receiver refuses at RCPT with a 5xx (a hard bounce at hand-off), and another one in
--bounce-every is accepted, then, once ``sent``, gets a DSN (``Action: failed``, ``5.1.1``) sent to
the VERP return path it arrived with, through a running ``herald smtpd`` (a role like the others):
both must end ``bounced``, their addresses suppressed. Meanwhile:
--kills SIGKILLs of a worker process (one Dramatiq worker process; its `dramatiq` parent then stops
the others and exits, as in production), one Redis restart, one platform HTTP restart and one
PostgreSQL restart (fast shutdown, start again on the same data and port); last (when e-mail is among
the channels) the ``outcome`` fault: the SMTP receiver SIGKILLs the worker process that sent the next
e-mail right after answering it 250, between the provider's success and the write of the outcome
(written in batches, tasks/platform/outcomes.py): that e-mail, and any outcome waiting with it, is
delivered again once its lease runs out, a duplicate explained like a kill's.

The roles run as `herald up` runs them: separate processes (platform HTTP, scheduler, workers)
under herald.supervisor, which restarts each after a crash; the killed worker is restarted by
the same guard that stops a start-up crash loop (it had run longer than STARTUP_SECONDS).
PostgreSQL and Redis are always chaos's own embedded servers here (DATABASE_URL and REDIS_URL are
not used), since both are restarted: a shared server is not chaos's to restart. Redis keeps an
append-only file, so a restart loses nothing; PostgreSQL's fast shutdown ends every connection and
checkpoints, so every role must reconnect.

Prints accepted, received, lost (a refused e-mail is not counted as lost: it is checked apart),
duplicates (each with whether a worker kill or the PostgreSQL restart followed its first receipt
within CRASH_WINDOW_SECONDS, the documented crash window, or came at most KILL_SKEW_SECONDS before it), and the time from the last
fault (or the last accept, when later) to every message final (``sent``, or ``delivered`` for the
relay's). Exits non-zero when anything is lost, a message is not final, duplicates exceed 0.1 % or
one is unexplained, a refused or returned e-mail is not ``bounced`` or its address not suppressed (or
another message ``bounced``), or settling took longer than SETTLE_SECONDS. A relayed message that stays
``sent`` because its event came before Herald had recorded the relay's id (the event is then kept
as unmatched) is explained only when a worker kill followed the message's first call within the
crash window; any other fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import asyncpg
import httpx
import psutil

from herald.roles import scheduler_argv, serve_argv, smtpd_argv, worker_argv
from kit.settings import load_settings, replace_database
from kit.systems import DATA_SYSTEMS
from bench.http_receiver import HttpReceiver, provider_env
from bench.receiver import REFUSED_PREFIX, Receiver
from bench.relay_receiver import RelayReceiver, webhook_secret
from bench.stage import free_port
from herald.supervisor import Child, Supervisor

ROOT = Path(__file__).resolve().parent.parent
SETTLE_SECONDS = 30.0
# A duplicate is explained when a worker was killed within this long after the first copy
# arrived: the provider had the message, the worker died before `sent` was recorded.
CRASH_WINDOW_SECONDS = 15.0
# ...or killed just before it: a request the worker wrote to the provider's socket in its last moment is
# read, and its arrival timed, by the provider's server a few milliseconds after the kill (chaos's
# 2026-11-28 night run: an SMS timed 10 ms after the outcome fault's kill, delivered again 16 s later).
KILL_SKEW_SECONDS = 1.0
MAX_DUPLICATE_RATIO = 0.001
IN_FLIGHT = 32
BOUNCE_EVERY = 50  # one e-mail in 50 (2 %) refused at RCPT, another one in 50 answered by a DSN
REFUSED, RETURNED = REFUSED_PREFIX, "returned"  # the e-mails that must end `bounced`, by how


def say(text: str) -> None:
    print(f"chaos: {text}", file=sys.stderr, flush=True)


def _herald(env: dict, *args: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                            env=env, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"herald {' '.join(args)}: {result.stderr}")
    return json.loads(result.stdout)


def _database_url(tmp: Path, children: list) -> str:
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    from herald.embedded import EmbeddedPostgres

    server = EmbeddedPostgres(tmp / "pg", free_port())
    server.prepare()
    command = server.command()
    children.append(subprocess.Popen(command.argv, user=command.user, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True))
    server.wait_ready()
    return server.url


class PostgresRole:
    """Chaos's own embedded PostgreSQL, which it restarts: SIGINT is PostgreSQL's fast shutdown
    (every session ended, a checkpoint written), then a start on the same data directory and port."""

    def __init__(self, tmp: Path):
        from herald.embedded import EmbeddedPostgres

        self.server = EmbeddedPostgres(tmp / "pg", free_port())
        self.server.prepare()
        self.url = self.server.url
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        command = self.server.command()
        self.process = subprocess.Popen(command.argv, user=command.user, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.server.wait_ready()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(60)


class RedisRole:
    def __init__(self, tmp: Path):
        from herald.embedded import EmbeddedRedis

        self.server = EmbeddedRedis(tmp / "redis", free_port())
        self.server.prepare()
        self.url = self.server.url
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(self.server.command().argv, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.server.wait_ready()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)  # flushes the append-only file
        self.process.wait(30)


RELAY = "relay"  # e-mail of a second account, through its own relay (Resend)
CHANNELS = ("email", "sms", "push", "whatsapp", RELAY)
SCOPES = {"email": "email:send,email:read", "sms": "sms:send", "push": "push:send", "whatsapp": "whatsapp:send"}
RELAY_SCOPES = "email:send,email:read,providers:manage"


def bounce_of(index: int, channels: tuple[str, ...], every: int = BOUNCE_EVERY) -> str | None:
    """How message ``index`` is to bounce, if it is one of those e-mails: REFUSED (one in ``every``:
    its recipient is refused at RCPT, a hard bounce at hand-off) or RETURNED (another one in ``every``:
    accepted, then a DSN comes back to its return path)."""
    if every < 2 or channels[index % len(channels)] != "email":
        return None
    turn = (index // len(channels)) % every
    return REFUSED if turn == 0 else RETURNED if turn == every // 2 else None


def recipient(channel: str, index: int, bounce: str | None = None) -> str:
    """Message ``index``'s own recipient: a provider call names it, so each call is counted against
    its message (US numbers of the 415 and 628 areas with a valid exchange, 2xx); ``bounce``
    (:func:`bounce_of`) names the e-mail's local part."""
    if channel in ("email", RELAY):
        return f"{bounce or ('r' if channel == RELAY else 'u')}{index}@example.com"
    if channel == "push":
        return f"chaos-device-{index}"
    return f"+1{415 if channel == 'sms' else 628}{2_000_000 + index}"


def request_of(channel: str, index: int, sender: str, bounce: str | None = None) -> tuple[str, dict]:
    to, key = recipient(channel, index, bounce), f"chaos-{index}"
    if channel in ("email", RELAY):
        return "/v1/emails/send", {"Source": f"Chaos <chaos@{sender}>", "Destination": {"ToAddresses": [to]},
                                   "Message": {"Subject": {"Data": f"chaos {index}"}, "Body": {"Text": {"Data": "hello"}}},
                                   "IdempotencyKey": key}
    if channel == "push":
        return "/v1/push/send", {"Notification": {"Title": "Chaos", "Body": f"chaos {index}"}, "DeviceTokens": [to],
                                 "IdempotencyKey": key}
    return f"/v1/{channel}/send", {"To": [to], "Body": f"chaos {index}", "IdempotencyKey": key}


async def _send_all(url: str, senders: dict[str, tuple[str, str]], count: int, rate: float, accepted: dict,
                    channels: tuple[str, ...] = ("email",), bounce_every: int = 0,
                    returned: dict[str, str] | None = None) -> None:
    """Open loop at ``rate``, each channel with its account's (key, sender domain) from ``senders``;
    a request that fails (platform restarting) is retried with the same
    IdempotencyKey, as a client would, so a retried accept is never a second message. At most
    IN_FLIGHT requests at once: while the platform restarts, sending pauses and then catches up
    (rather than thousands of requests retrying at once)."""
    limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
    slots = asyncio.Semaphore(IN_FLIGHT)
    async with httpx.AsyncClient(base_url=url, timeout=10, limits=limits) as client:
        async def one(index: int) -> None:
            async with slots:
                await _send_one(client, index)

        async def _send_one(client, index: int) -> None:
            channel = channels[index % len(channels)]
            key, sender = senders[channel]
            path, body = request_of(channel, index, sender, bounce_of(index, channels, bounce_every))
            for _attempt in range(120):
                try:
                    response = await client.post(path, json=body, headers={"Authorization": f"Bearer {key}"})
                    if response.status_code == 202:
                        accepted[index] = (response.json()["MessageId"], time.monotonic())
                        if returned is not None and bounce_of(index, channels, bounce_every) == RETURNED:
                            returned[accepted[index][0]] = recipient(channel, index, RETURNED)
                        return
                    if response.status_code < 500 and response.status_code != 429:
                        raise RuntimeError(f"send {index}: {response.status_code} {response.text}")
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.5)  # the platform restarting: try again, same IdempotencyKey
            raise RuntimeError(f"send {index} never accepted")

        start = time.monotonic()
        tasks = []
        for index in range(count):
            delay = start + index / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await slots.acquire()  # a full pipeline holds the loop back: no pile of pending tasks
            slots.release()
            tasks.append(asyncio.create_task(one(index)))
        await asyncio.gather(*tasks)


def _worker_pids(child: Child) -> list[int]:
    if not child.alive:
        return []
    try:
        return [p.pid for p in psutil.Process(child.process.pid).children()
                if p.is_running() and "resource_tracker" not in " ".join(p.cmdline())]
    except psutil.Error:
        return []


async def _faults(plan: list[tuple[float, str]], start: float, supervisor: Supervisor, worker: Child,
                  platform: Child, redis_role: RedisRole, postgres: PostgresRole,
                  log: list[tuple[float, str]], receiver: Receiver | None = None) -> None:
    for at, fault in plan:
        await asyncio.sleep(max(0.0, start + at - time.monotonic()))
        if fault == "outcome":
            # The SMTP receiver kills the worker that sent the next e-mail right after its 250:
            # between the provider's success and the (batched) write of the outcome.
            killed_at = await asyncio.to_thread(receiver.kill_after_next_accept) if receiver is not None else None
            if killed_at is None:
                say("no e-mail arrived to kill its worker after")
                continue
            log.append((killed_at, fault))  # the kill's own time: it waited for an e-mail to arrive
            say(f"fault: {fault} at {killed_at - start:.0f}s")
            continue
        if fault == "kill":
            for _wait in range(200):  # the restarted worker's processes, once they run
                pids = _worker_pids(worker)
                if pids:
                    break
                await asyncio.sleep(0.1)
            if not pids:
                say("no worker process to kill")
                continue
            os.kill(pids[0], signal.SIGKILL)
        elif fault == "redis":
            redis_role.stop()
            await asyncio.sleep(2)
            await asyncio.to_thread(redis_role.start)
        elif fault == "platform":
            platform.process.send_signal(signal.SIGKILL)
        elif fault == "postgres":
            await asyncio.to_thread(postgres.stop)  # waits for the postmaster's exit
            await asyncio.sleep(2)
            await asyncio.to_thread(postgres.start)  # until it accepts connections
        log.append((time.monotonic(), fault))
        say(f"fault: {fault} at {time.monotonic() - start:.0f}s")


async def _statuses(database_url: str, tenant: str | None = None) -> dict[str, int]:
    """Messages by status: every account's, or the account ``tenant``'s (its public id)."""
    connection = await asyncpg.connect(database_url.replace("postgres://", "postgresql://", 1))
    try:
        if tenant is None:
            rows = await connection.fetch("SELECT status, count(*) AS n FROM messages GROUP BY status")
        else:
            rows = await connection.fetch(
                "SELECT m.status, count(*) AS n FROM messages m JOIN tenants t ON t.id = m.tenant_id "
                "WHERE t.public_id = $1 GROUP BY m.status", tenant)
    finally:
        await connection.close()
    return {row["status"]: row["n"] for row in rows}


def _plan(duration: float, kills: int, outcome_kill: bool = True) -> list[tuple[float, str]]:
    """Kills spread over the sending; the Redis, platform and PostgreSQL restarts between them, and
    the kill between a provider's success and the outcome's write last."""
    step = duration / (kills + 4)
    plan = [(step * (i + 1), "kill") for i in range(kills)]
    plan += [(step * (kills + 1) - step / 2, "redis"), (step * (kills + 2) - step / 2, "platform"),
             (step * (kills + 3) - step / 2, "postgres")]
    if outcome_kill:
        plan.append((step * (kills + 4) - step / 2, "outcome"))
    return sorted(plan)


class LiveStack:
    """Herald's roles as separate processes under herald.supervisor, on its own Redis and
    databases (one per system, all migrated, as `herald up` has them: the scheduler runs every
    system's jobs and relays), with a verified sender domain, a live key (``scopes``) and the platform's
    e-mail provider set to SMTP towards a local aiosmtpd :class:`Receiver` (also used by
    bench/smtp_e2e.py and, with the other channels' providers in ``env``, bench/providers_e2e.py).
    ``own_postgres``: an embedded PostgreSQL of its own (:class:`PostgresRole`, which chaos
    restarts) whatever DATABASE_URL says; ``smtpd``: ``herald smtpd`` as a role too, receiving on
    ``smtpd_port`` (returns go to the platform)."""

    def __init__(self, processes: int, threads: int, *, scopes: str = "email:send,email:read",
                 env: dict[str, str] | None = None, own_postgres: bool = False, smtpd: bool = False):
        self.processes, self.threads = processes, threads
        self.own_postgres, self.postgres = own_postgres, None
        self.smtpd, self.smtpd_port = smtpd, None
        self.scopes, self.extra_env = scopes, env or {}
        self.supervisor = Supervisor()
        self.children: list[subprocess.Popen] = []
        self.watcher: threading.Thread | None = None
        self.settings = None

    async def __aenter__(self) -> "LiveStack":
        from herald.database import migrate
        from tests.fixtures.provider_servers import DnsServer

        self.tmp = Path(tempfile.mkdtemp(prefix="herald-chaos-"))
        if self.own_postgres:
            self.postgres = PostgresRole(self.tmp)
            database_url = self.postgres.url
        else:
            database_url = _database_url(self.tmp, self.children)
        self.redis = RedisRole(self.tmp)
        self.receiver = Receiver()
        self.receiver.start()
        self.dns = dns = DnsServer()
        self.port = port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        run = secrets.token_hex(3)
        env = self.env = {
            **{k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")},
            "DATABASE_URL": database_url, "REDIS_URL": self.redis.url,
            **{f"{system.name.upper()}_DATABASE_URL": replace_database(database_url, f"herald_chaos_{run}_{system.name}")
               for system in DATA_SYSTEMS},
            "PLATFORM_PORT": str(port), "PLATFORM_URL": self.url,
            "SECRET_KEY": secrets.token_urlsafe(40), "SERVICE_TOKEN": secrets.token_urlsafe(40),
            "HERALD_VAR_DIR": str(self.tmp / "var"), "WORKER_METRICS_PORT": "0", "LOG_LEVEL": "WARNING",
            "RATE_LIMIT": "100000", "DNS_NAMESERVERS": dns.address, "EMAIL_PROVIDER": "smtp",
            "EMAIL_PROVIDER_CONFIG": json.dumps({"host": "127.0.0.1", "port": self.receiver.port,
                                                 "security": "none", "pool_size": 8}),
            "DATABASE_POOL_MAX": "10", **self.extra_env}
        self.settings = settings = load_settings(env)
        await migrate(settings)
        self.tenant, self.key, self.domain = self.account("Chaos", self.scopes)

        self.logs = self.tmp / "logs"
        self.logs.mkdir()
        supervisor = self.supervisor
        self.platform = supervisor.add(Child("platform", serve_argv("platform", "127.0.0.1", port, 1), env,
                                             log=self.logs / "platform.log"))
        self.worker = supervisor.add(Child("worker", worker_argv(self.processes, self.threads),
                                           {**env, **settings.worker_env()}, log=self.logs / "worker.log"))
        supervisor.add(Child("scheduler", scheduler_argv(), env, log=self.logs / "scheduler.log"))
        if self.smtpd:
            self.smtpd_port = free_port()
            supervisor.add(Child("smtpd", smtpd_argv(), {**env, "SMTP_RECEIVE_PORT": str(self.smtpd_port),
                                                         "SMTP_SUBMISSION_PORT": str(free_port()), "SMTP_TLS_PORT": "0"},
                                 log=self.logs / "smtpd.log"))
        for _wait in range(600):
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
        for _wait in range(300 if self.smtpd else 0):
            try:
                socket.create_connection(("127.0.0.1", self.smtpd_port), timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.2)
        self.watcher = threading.Thread(target=supervisor.watch, daemon=True)
        self.watcher.start()
        return self

    def account(self, name: str, scopes: str) -> tuple[str, str, str]:
        """A new account with a live key of ``scopes`` and a verified sender domain (the loopback DNS
        server publishes its records): (account id, key, domain)."""
        env = self.env
        tenant = _herald(env, "tenant", "create", "--name", name)["TenantId"]
        key = _herald(env, "key", "create", "--tenant", tenant, "--scopes", scopes, "--name", "chaos")["Key"]
        domain = f"chaos{secrets.token_hex(3)}.example"
        for record in _herald(env, "domain", "add", "--tenant", tenant, domain)["Domain"]["Records"]:
            self.dns.publish(record["Name"], record["Type"], record["Value"])
        verified = _herald(env, "domain", "verify", "--tenant", tenant, domain)
        if verified["Outcome"] != "verified":
            raise RuntimeError(f"the sender domain did not verify: {verified}")
        return tenant, key, domain

    async def __aexit__(self, *exc) -> None:
        from herald.database import drop_databases

        self.supervisor.stopping = True
        if self.watcher is not None:
            self.watcher.join(60)
        self.supervisor.stop_all()
        self.receiver.stop()
        self.redis.stop()
        if self.settings is not None:
            await drop_databases(self.settings)
        for child in self.children:
            child.send_signal(signal.SIGINT)
            child.wait(30)
        if self.postgres is not None:
            self.postgres.stop()

    async def connect(self) -> asyncpg.Connection:
        """A connection of the bench's own to the stack's platform database."""
        return await asyncpg.connect(self.env["PLATFORM_DATABASE_URL"].replace("postgres://", "postgresql://", 1))

    async def statuses(self, tenant: str | None = None) -> dict[str, int]:
        return await _statuses(self.env["PLATFORM_DATABASE_URL"], tenant)


async def run(args) -> int:
    channels = tuple(args.channels.split(","))
    unknown = set(channels) - set(CHANNELS)
    if unknown:
        raise SystemExit(f"unknown channels {sorted(unknown)}; choose from {', '.join(CHANNELS)}")
    providers = HttpReceiver()
    providers.start()
    relay: Relay | None = None
    # The relay account's base_url is the local server on loopback: the egress lets a tenant's
    # provider URL reach loopback only with the development switch (kit/egress.py).
    env = {**provider_env(providers.url), "WEBHOOKS_ALLOW_LOOPBACK": "1"}
    scopes = ",".join(SCOPES[channel] for channel in channels if channel != RELAY) or SCOPES["email"]
    try:
        async with LiveStack(args.processes, args.threads, env=env, scopes=scopes, own_postgres=True,
                             smtpd=args.bounce_every >= 2 and "email" in channels) as stack:
            if RELAY in channels:
                relay = await Relay.set_up(stack)
            return await _chaos(args, stack, channels, providers, relay)
    finally:
        providers.stop()
        if relay is not None:
            relay.server.stop()


class Relay:
    """The account of the ``relay`` channel: its own e-mail provider, Resend, set through the
    providers API towards the local Resend (bench/relay_receiver.py), whose signed events go to the
    account's callback."""

    def __init__(self, tenant: str, key: str, domain: str, server: RelayReceiver):
        self.tenant, self.key, self.domain, self.server = tenant, key, domain, server

    @classmethod
    async def set_up(cls, stack: LiveStack) -> "Relay":
        tenant, key, domain = stack.account("Chaos relay", RELAY_SCOPES)
        api_key, secret = "re_" + secrets.token_hex(16), webhook_secret()
        server = RelayReceiver(api_key, f"{stack.url}/callbacks/resend/{tenant}", secret)
        server.start()
        async with httpx.AsyncClient(base_url=stack.url, timeout=10) as client:
            answer = await client.put("/v1/providers/email/resend", headers={"Authorization": f"Bearer {key}"},
                                      json={"Settings": {"base_url": server.url},
                                            "Secrets": {"api_key": api_key, "webhook_secret": secret}})
        if answer.status_code not in (200, 201):
            server.stop()
            raise RuntimeError(f"setting the relay account's provider: {answer.status_code} {answer.text}")
        return cls(tenant, key, domain, server)


def arrivals_by_message(accepted: dict[int, tuple[str, float]], channels: tuple[str, ...], receiver: Receiver,
                        providers: HttpReceiver, relay: Relay | None = None) -> dict[str, list[float]]:
    """When each accepted message reached its provider's server, every time, by Herald message id:
    e-mail by the Herald id the SMTP receiver read, the relay's by the Herald id its call carried
    (once per Idempotency-Key), the other channels by the recipient called."""
    found: dict[str, list[float]] = {}
    arrivals, herald_ids = receiver.snapshot()
    for message_id, times in arrivals.items():
        found.setdefault(herald_ids[message_id], []).extend(times)
    for herald_id, times in (relay.server.calls() if relay is not None else {}).items():
        found.setdefault(herald_id, []).extend(times)
    calls = providers.snapshot()
    for index, (herald_id, _at) in accepted.items():
        channel = channels[index % len(channels)]
        if channel not in ("email", RELAY) and (channel, recipient(channel, index)) in calls:
            found.setdefault(herald_id, []).extend(calls[(channel, recipient(channel, index))])
    return {herald_id: sorted(times) for herald_id, times in found.items()}


async def _final(stack: LiveStack, accepted: dict, relay: Relay | None, relay_ids: set[str],
                 bounces: int = 0) -> bool:
    """Every accepted message final (``sent``, ``delivered``, ``failed``, ``bounced``) and, with a relay, every
    relayed message ``delivered`` or its event's last outcome known (the relay gave up on it), and
    at least ``bounces`` messages ``bounced`` (a returned e-mail is ``sent`` until its DSN is read)."""
    statuses = await stack.statuses()
    if not set(statuses) <= {"sent", "delivered", "failed", "bounced"} or sum(statuses.values()) < len(accepted):
        return False
    if statuses.get("bounced", 0) < bounces:
        return False
    if relay is None:
        return True
    return (set(await _not_delivered(stack, relay.tenant)) & relay_ids) <= set(relay.server.events())


async def _not_delivered(stack: LiveStack, tenant: str) -> dict[str, str]:
    """The relay account's messages that are not ``delivered``, by Herald id, with their status."""
    connection = await stack.connect()
    try:
        rows = await connection.fetch(
            "SELECT m.public_id, m.status FROM messages m JOIN tenants t ON t.id = m.tenant_id "
            "WHERE t.public_id = $1 AND m.status <> 'delivered'", tenant)
    finally:
        await connection.close()
    return {row["public_id"]: row["status"] for row in rows}


def dsn(final_recipient: str) -> bytes:
    """A remote server's DSN for ``final_recipient``: failed for good, 5.1.1 (RFC 3464)."""
    return f"""From: MAILER-DAEMON@mx.example.net
To: postmaster
Subject: Delivery Status Notification (Failure)
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="chaos-dsn"

--chaos-dsn
Content-Type: text/plain

Your message could not be delivered.
--chaos-dsn
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Final-Recipient: rfc822; {final_recipient}
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 mailbox unavailable

--chaos-dsn--
""".replace("\n", "\r\n").encode()


def _send_dsn(port: int, return_path: str, message: bytes) -> bool:
    """One DSN to ``herald smtpd`` with the null sender, as a remote server sends it; False when it
    was not taken (smtpd down, or 451 while the platform does not answer): try again later."""
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.sendmail("", [return_path], message)
        return True
    except (smtplib.SMTPException, OSError):
        return False


async def _return_dsns(stack: LiveStack, returned: dict[str, str], done: set[str], stop: asyncio.Event) -> None:
    """For each e-mail of ``returned`` (Herald id: recipient) once it is ``sent`` and has arrived, a
    DSN to the return path it arrived with, until taken (into ``done``) or ``stop``: as a remote
    server retries, through every fault."""
    while not stop.is_set():  # ``returned`` grows while the sending goes on
        pending = [mid for mid in list(returned) if mid not in done]
        try:
            connection = await asyncpg.connect(
                stack.env["PLATFORM_DATABASE_URL"].replace("postgres://", "postgresql://", 1), timeout=5)
            try:
                rows = await connection.fetch("SELECT public_id FROM messages WHERE public_id = ANY($1::text[]) "
                                              "AND status = 'sent'", pending)
            finally:
                await connection.close()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError):
            rows = []  # PostgreSQL restarting: next round
        for row in rows:
            mid = row["public_id"]
            return_path = stack.receiver.return_path(mid)
            if return_path and await asyncio.to_thread(_send_dsn, stack.smtpd_port, return_path, dsn(returned[mid])):
                done.add(mid)
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except asyncio.TimeoutError:
            pass


async def _bounced(stack: LiveStack, ids: set[str]) -> dict[str, tuple[str, bool]]:
    """The refused or returned e-mails ``ids``: each one's status and whether its account suppressed its
    recipient for a bounce naming it."""
    connection = await stack.connect()
    try:
        rows = await connection.fetch(
            "SELECT m.public_id, m.status, EXISTS (SELECT 1 FROM suppressions s WHERE s.tenant_id = m.tenant_id "
            "AND s.channel = 'email' AND s.address = lower(m.recipient) AND s.reason = 'bounce' "
            "AND s.message_id = m.id) AS suppressed FROM messages m WHERE m.public_id = ANY($1::text[])", list(ids))
    finally:
        await connection.close()
    return {row["public_id"]: (row["status"], row["suppressed"]) for row in rows}


async def _chaos(args, stack: LiveStack, channels: tuple[str, ...], providers: HttpReceiver,
                 relay: Relay | None = None) -> int:
    receiver, logs, supervisor = stack.receiver, stack.logs, stack.supervisor
    duration = args.messages / args.rate
    plan = _plan(duration, args.kills, "email" in channels)
    say(f"{args.messages} messages ({', '.join(channels)} in turn) at {args.rate}/s ({duration:.0f}s), "
        f"{args.processes} worker processes x {args.threads} threads; faults: "
        f"{[(round(at), f) for at, f in plan]}; logs in {logs}")
    accepted: dict[int, tuple[str, float]] = {}
    fault_log: list[tuple[float, str]] = []
    start = time.monotonic()
    senders = {channel: (stack.key, stack.domain) for channel in channels if channel != RELAY}
    if relay is not None:
        senders[RELAY] = (relay.key, relay.domain)
    # The returned e-mails get their DSNs as they go out, through the faults, until every one is final.
    returned: dict[str, str] = {}
    dsns_taken: set[str] = set()
    stop_dsns = asyncio.Event()
    dsns = asyncio.create_task(_return_dsns(stack, returned, dsns_taken, stop_dsns)) if stack.smtpd else None
    expected_returned = sum(1 for index in range(args.messages) if bounce_of(index, channels, args.bounce_every) == RETURNED)
    await asyncio.gather(_send_all(stack.url, senders, args.messages, args.rate, accepted, channels, args.bounce_every,
                                   returned),
                         _faults(plan, start, supervisor, stack.worker, stack.platform, stack.redis, stack.postgres,
                                 fault_log, receiver))
    last_accept = max(at for _id, at in accepted.values())
    last_fault = max(at for at, _f in fault_log)
    reference = max(last_accept, last_fault)
    deadline = reference + args.timeout
    relay_ids = {mid for index, (mid, _at) in accepted.items() if channels[index % len(channels)] == RELAY}
    # A refused e-mail never arrives: it is checked apart (``bounced``, its address suppressed), and
    # everything else is counted as before; a returned one arrives, then its DSN makes it ``bounced``.
    refused_ids = {mid for index, (mid, _at) in accepted.items() if bounce_of(index, channels, args.bounce_every) == REFUSED}
    final_at = None
    while time.monotonic() < deadline:
        if await _final(stack, accepted, relay, relay_ids, len(refused_ids) + len(returned)):
            final_at = time.monotonic()
            break
        await asyncio.sleep(0.5)
    stop_dsns.set()
    if dsns is not None:
        await dsns
    statuses = await stack.statuses()
    await asyncio.sleep(2)  # a late duplicate still arriving would show here

    ids = {message_id for message_id, _at in accepted.values()} - refused_ids
    arrivals = arrivals_by_message(accepted, channels, receiver, providers, relay)
    received = set(arrivals) & ids
    lost = sorted(ids - received)
    bounces = await _bounced(stack, refused_ids | set(returned))

    def outcome(group: set[str]) -> dict:
        not_bounced = {mid: bounces.get(mid, ("missing",))[0] for mid in group if bounces.get(mid, ("",))[0] != "bounced"}
        suppressed = sum(1 for mid in group if bounces.get(mid, ("", False))[1])
        return {"accepted": len(group), "bounced": len(group) - len(not_bounced), "suppressed": suppressed,
                "not_bounced": not_bounced}

    refused_outcome, returned_outcome = outcome(refused_ids), outcome(set(returned))
    returned_outcome["dsns_taken_by_smtpd"] = len(dsns_taken)
    wrongly_bounced = statuses.get("bounced", 0) - refused_outcome["bounced"] - returned_outcome["bounced"]
    # A worker kill, or PostgreSQL going away, after a provider took a message and before `sent` was
    # recorded: the message is delivered again (at least once); either explains a duplicate.
    kills = [at for at, fault in fault_log if fault in ("kill", "postgres", "outcome")]
    duplicates = {herald_id: times for herald_id, times in arrivals.items() if len(times) > 1}
    unexplained = [herald_id for herald_id, times in duplicates.items()
                   if not any(-KILL_SKEW_SECONDS <= kill - times[0] <= CRASH_WINDOW_SECONDS for kill in kills)]
    extra = sum(len(times) - 1 for times in duplicates.values())
    settle = (final_at - reference) if final_at else None
    first_arrival = {herald_id: times[0] for herald_id, times in arrivals.items()}
    channel_of_id = {herald_id: channels[index % len(channels)] for index, (herald_id, _at) in accepted.items()}
    by_channel = {channel: {"accepted": sum(1 for i, c in channel_of_id.items() if c == channel and i in ids),
                            "received": sum(1 for i in received if channel_of_id[i] == channel),
                            "duplicate_deliveries": sum(len(t) - 1 for i, t in duplicates.items()
                                                        if channel_of_id.get(i) == channel)}
                  for channel in channels}
    # Per fault: how long until every message accepted before it had arrived (the sending goes on
    # after the last fault, so "all final" alone would time the load, not the recovery).
    recovery, slowest = {}, {}
    for at, fault in fault_log:
        before = [(first_arrival.get(mid), mid) for mid, accepted_at in accepted.values()
                  if accepted_at < at and mid in ids]
        if before and all(arrived is not None for arrived, _mid in before):
            arrived, last = max(before)
            recovery[f"{fault}@{at - start:.0f}s"] = round(max(0.0, arrived - at), 1)
            if arrived - at > 2:  # which message (and channel) the recovery waited for
                slowest[f"{fault}@{at - start:.0f}s"] = f"{channel_of_id[last]} {last}"
    result = {
        "messages": args.messages, "rate": args.rate, "worker_processes": args.processes, "channels": by_channel,
        "accepted": len(accepted), "received": len(received), "lost": len(lost),
        "refused_at_rcpt": refused_outcome, "returned_by_dsn": returned_outcome,
        "other_messages_bounced": wrongly_bounced,
        "duplicate_deliveries": extra, "duplicate_ratio": round(extra / max(1, len(accepted)), 5),
        "unexplained_duplicates": {mid: [channel_of_id.get(mid), [round(at - start, 2) for at in duplicates[mid]]]
                                   for mid in unexplained}, "statuses": statuses,
        "faults": [(round(at - start, 1), fault) for at, fault in fault_log],
        "settled_seconds_after_last_fault_or_accept": round(settle, 1) if settle is not None else None,
        "settled_seconds_after_last_fault": round(final_at - last_fault, 1) if final_at else None,
        "recovery_seconds_per_fault": recovery,
        "recovery_waited_for": slowest,
    }
    stuck: list[str] = []
    if relay is not None:
        # A relayed message is final when its event moved it to `delivered`. One still `sent`
        # whose event found no message with the relay's id (answered `unmatched`: the event came
        # before Herald recorded the id) is explained only by a worker kill within the crash window
        # after its first call: the relay had it, the worker died before `sent` was recorded.
        events = relay.server.events()
        not_delivered = await _not_delivered(stack, relay.tenant)
        outcomes: dict[str, int] = {}
        for outcome, _at in events.values():
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        explained = [mid for mid in not_delivered if events.get(mid, ("",))[0] == "unmatched" and arrivals.get(mid)
                     and any(0 <= kill - arrivals[mid][0] <= CRASH_WINDOW_SECONDS for kill in kills)]
        stuck = sorted(set(not_delivered) - set(explained))
        result["relay"] = {"provider": "resend", "account": relay.tenant, "accepted": len(relay_ids),
                           "delivered": len(relay_ids) - len(set(not_delivered) & relay_ids),
                           "idempotent_replays": relay.server.replays, "event_outcomes": outcomes,
                           "not_delivered_explained": explained,
                           "not_delivered": {mid: not_delivered[mid] for mid in stuck}}
    print(json.dumps(result, indent=2))
    problems = []
    if lost:
        problems.append(f"{len(lost)} lost (e.g. {lost[:5]})")
    if final_at is None:
        problems.append(f"not every message final within {args.timeout:.0f}s: {statuses}")
    elif settle > SETTLE_SECONDS:
        problems.append(f"settled {settle:.0f}s after the last fault or accept (bound {SETTLE_SECONDS:.0f}s)")
    if recovery and max(recovery.values()) > SETTLE_SECONDS:
        problems.append(f"messages accepted before a fault arrived more than {SETTLE_SECONDS:.0f}s after it: "
                        f"{recovery}")
    if extra > MAX_DUPLICATE_RATIO * len(accepted) or unexplained:  # of every accepted message, as before bounces
        problems.append(f"{extra} duplicate deliveries, unexplained: {unexplained}")
    for name, group in (("refused", refused_outcome), ("returned", returned_outcome)):
        if group["not_bounced"] or group["suppressed"] < group["accepted"]:
            problems.append(f"{name} e-mails: {len(group['not_bounced'])} not bounced ({group['not_bounced']}), "
                            f"{group['accepted'] - group['suppressed']} not suppressed")
    if wrongly_bounced:
        problems.append(f"{wrongly_bounced} other messages bounced")
    if len(returned) != expected_returned:
        problems.append(f"{expected_returned - len(returned)} returned e-mails not followed")
    if statuses.get("failed"):
        problems.append(f"{statuses['failed']} failed")
    if stuck:
        problems.append(f"{len(stuck)} relayed messages not delivered by their events (e.g. {stuck[:5]})")
    say("PASS: nothing lost, duplicates within the crash window, refused and returned e-mails bounced" if not problems else "FAIL: " + "; ".join(problems))
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos")
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--channels", default=",".join(CHANNELS),
                        help=f"taken in turn, message by message ({RELAY}: e-mail of an account with its own Resend)")
    parser.add_argument("--rate", type=float, default=40.0, help="messages accepted per second")
    parser.add_argument("--kills", type=int, default=4, help="worker SIGKILLs")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=300.0, help="longest wait for the last messages")
    parser.add_argument("--bounce-every", type=int, default=BOUNCE_EVERY,
                        help="one e-mail in this many refused at RCPT, another answered by a DSN (0: none)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
