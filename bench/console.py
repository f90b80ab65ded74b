"""The console bench: how fast its pages answer and how much a page weighs (issue 39's speed bar).

    python -m bench.console [--samples 200]      (also a step of `python -m bench`; --skip-console there)

Needs DATABASE_URL and REDIS_URL when run alone. Creates its own identity and platform databases
(``herald_bench_<id>_identity``/``_platform``), migrates them, uses an empty Redis logical database
(the bench's own inside `python -m bench`; the first empty one, 15 down, when run alone, flushed at its
end), starts ``herald serve identity``, ``platform`` and ``console`` as production runs them
(``HERALD_ENV=production``: bcrypt at 12, the ``__Host-`` cookie, JSON logs), and drops the databases
at the end.

Set-up through the public routes only: a person signs up on the identity server, signs in on the
platform, creates an account and a test key, and sends :data:`MESSAGES` test e-mails to the sandbox
(left queued: no worker runs, the list only reads them); then the person signs in **once** through
the console's sign-in form, as a browser does (the anonymous form key, the CSRF token, the Origin).

Measured, for each page of :data:`PAGES`: ``--samples`` sequential requests on one keep-alive
connection after ``--warmup`` ones, wall time from the request written to the answer read (on
loopback: the server's time plus a fraction of a millisecond), p50 and p95. Nothing is cached across
requests or people: every signed-in page asks the platform again with the person's session (which
asks the identity server), as the console always does (app/console/upstream.py). Bound: every p95
under :data:`P95_BOUND_MS`. Beside them, the CPU time (user + system) each serving process spent per
request over the timed ones (``cpu_ms``): on a busy machine the wall times include waiting for a
core, this does not.

Weight: each page's HTML plus every script and stylesheet it loads (``<script src>``, ``<link
rel=stylesheet>``, the vendored htmx among them), each compressed with gzip at level 6 (what a
proxy in front sends), summed. Bound: under :data:`WEIGHT_BOUND_KB` KB.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import redis

from bench.runtime import _drop, _spawn, _stop, _wait
from bench.stage import ROOT, free_port, say
from kit.settings import replace_database

P95_BOUND_MS = 50.0
WEIGHT_BOUND_KB = 100.0
MESSAGES = 60
PASSWORD = "bench console password 1234"
# name -> path ({account} is the account's id): the sign-in form (anonymous), the account's overview,
# the messages list and the API keys.
PAGES = {"sign-in": "/sign-in", "overview": "/a/{account}/overview", "messages": "/a/{account}/messages",
         "api-keys": "/a/{account}/keys"}
ASSETS = re.compile(r'<script[^>]*\ssrc="([^"]+)"|<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Person:
    """A browser's cookie jar and forms, kept by hand: the production session cookie is Secure
    (``__Host-herald_console``), which an http client rightly never sends back over plain http."""

    def __init__(self, http: httpx.AsyncClient, origin: str):
        self.http, self.origin = http, origin
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def _keep(self, answer: httpx.Response) -> httpx.Response:
        for line in answer.headers.get_list("set-cookie"):
            name, _, rest = line.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in line.lower():
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        found = CSRF.search(answer.text)
        if found:
            self.csrf = found.group(1)
        return answer

    def _headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}

    async def get(self, path: str) -> httpx.Response:
        return self._keep(await self.http.get(path, headers=self._headers()))

    async def post(self, path: str, form: dict) -> httpx.Response:
        return self._keep(await self.http.post(path, data={"csrf_token": self.csrf, **form},
                                               headers={**self._headers(), "Origin": self.origin}))


async def _prepare(urls: dict[str, str]) -> tuple[str, str]:
    """A person with an account holding MESSAGES queued test e-mails: (their e-mail, the account id)."""
    email = f"bench-{secrets.token_hex(4)}@example.com"
    async with httpx.AsyncClient(timeout=30) as http:
        made = await http.post(f"{urls['identity']}/v1/users", json={"email": email, "password": PASSWORD,
                                                                     "name": "Bench"})
        assert made.status_code == 201, made.text
        platform = {"Origin": urls["platform"]}
        login = await http.post(f"{urls['platform']}/api/auth/login", json={"email": email, "password": PASSWORD},
                                headers=platform)
        assert login.status_code == 200, login.text
        auth = {**platform, "Authorization": f"Bearer {login.json()['Token']}"}
        account = await http.post(f"{urls['platform']}/api/tenants", json={"Name": "Bench console"}, headers=auth)
        assert account.status_code == 201, account.text
        account_id = account.json()["Id"]
        key = await http.post(f"{urls['platform']}/api/tenants/{account_id}/api-keys",
                              json={"name": "bench", "scopes": ["email:send"], "kind": "test"}, headers=auth)
        assert key.status_code == 201, key.text
        send = {"Authorization": f"Bearer {key.json()['ApiKey']['Key']}"}
        for index in range(MESSAGES):
            sent = await http.post(f"{urls['platform']}/v1/emails/send", headers=send, json={
                "Source": "Bench <bench@sandbox.herald.test>",
                "Destination": {"ToAddresses": [f"reader{index}@example.com"]},
                "Message": {"Subject": {"Data": f"Bench message {index}"},
                            "Body": {"Text": {"Data": "Hello from the console bench"}}}})
            assert sent.status_code == 202, sent.text
    return email, account_id


def _percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _cpu_seconds(pids: dict[str, int]) -> dict[str, float]:
    found = {}
    for system, pid in pids.items():
        times = psutil.Process(pid).cpu_times()
        found[system] = times.user + times.system
    return found


async def _time_page(person: Person, path: str, samples: int, warmup: int, pids: dict[str, int]) -> dict:
    for _ in range(warmup):
        answer = await person.get(path)
        assert answer.status_code == 200, f"{path}: {answer.status_code} {answer.text[:300]}"
    times = []
    before = _cpu_seconds(pids)
    for _ in range(samples):
        started = time.perf_counter()
        answer = await person.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, f"{path}: {answer.status_code}"
    after = _cpu_seconds(pids)
    ordered = sorted(times)
    # What a page costs the servers, whatever else the machine runs: CPU time (user + system) of each
    # serving process over the timed requests, per request. On a busy machine the wall times above
    # include waiting for a core; these do not.
    cpu = {system: round((after[system] - before[system]) / samples * 1000, 2) for system in pids}
    return {"p50_ms": round(statistics.median(ordered), 2), "p95_ms": round(_percentile(ordered, 95), 2),
            "max_ms": round(ordered[-1], 2), "samples": samples, "cpu_ms": {**cpu, "total": round(sum(cpu.values()), 2)}}


async def _weigh(person: Person, path: str) -> dict:
    page = await person.get(path)
    assets = sorted({src or href for src, href in ASSETS.findall(page.text)})
    parts = {"page": page.content}
    for asset in assets:
        answer = await person.http.get(asset)
        assert answer.status_code == 200, f"{asset}: {answer.status_code}"
        parts[asset.rsplit("/", 1)[-1]] = answer.content
    compressed = {name: len(gzip.compress(body, 6)) for name, body in parts.items()}
    total = sum(compressed.values())
    return {"gzip_bytes": total, "gzip_kb": round(total / 1024, 1), "raw_bytes": sum(map(len, parts.values())),
            "parts_gzip_bytes": compressed}


async def run_in(env: dict[str, str], samples: int, warmup: int, log_dir: Path) -> dict:
    run = secrets.token_hex(3)
    databases = {system: replace_database(env["DATABASE_URL"], f"herald_bench_{run}_{system}")
                 for system in ("identity", "platform")}
    ports = {system: free_port() for system in ("identity", "platform", "console")}
    urls = {system: f"http://127.0.0.1:{port}" for system, port in ports.items()}
    env = {**env, "IDENTITY_DATABASE_URL": databases["identity"], "PLATFORM_DATABASE_URL": databases["platform"],
           **{f"{system.upper()}_URL": url for system, url in urls.items()},
           **{f"{system.upper()}_INTERNAL_URL": url for system, url in urls.items()},
           **{f"{system.upper()}_PORT": str(port) for system, port in ports.items()},
           # One client address signs in and reads: the per-address ceilings would measure nothing here.
           "AUTH_IP_LIMIT": "10000000", "RATE_LIMIT": "10000000", "LOG_LEVEL": "WARNING"}
    processes: list[subprocess.Popen] = []
    try:
        for system in ("identity", "platform"):
            subprocess.run([sys.executable, "-m", "herald.cli", "migrate", system], env=env, cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
        for system in ("identity", "platform", "console"):
            processes.append(_spawn([sys.executable, "-m", "herald.cli", "serve", system, "--port",
                                     str(ports[system])], env, log_dir / f"console-bench-{system}.log"))
            await _wait(ports[system], processes[-1])
        # `herald serve` execs Sanic (single process): the serving process is the one spawned.
        pids = {system: process.pid for system, process in zip(("identity", "platform", "console"), processes)}
        say(f"console: a person, an account and {MESSAGES} queued test e-mails")
        email, account_id = await _prepare(urls)
        results: dict = {"bound_p95_ms": P95_BOUND_MS, "bound_weight_kb": WEIGHT_BOUND_KB, "pages": {}}
        async with httpx.AsyncClient(base_url=urls["console"], timeout=30) as http:
            person = Person(http, urls["console"])
            await person.get("/sign-in")
            signed = await person.post("/sign-in", {"email": email, "password": PASSWORD})
            assert signed.status_code == 303, f"sign-in: {signed.status_code} {signed.text[:300]}"
            anonymous = Person(http, urls["console"])  # the sign-in form is a page for people not signed in
            for name, template in PAGES.items():
                path = template.format(account=account_id)
                visitor = anonymous if name == "sign-in" else person
                say(f"console: {name} ({path}), {samples} requests after {warmup}")
                timing = await _time_page(visitor, path, samples, warmup, pids)
                weight = await _weigh(visitor, path)
                results["pages"][name] = {"path": template, **timing, **weight,
                                          "within_bound": timing["p95_ms"] < P95_BOUND_MS
                                          and weight["gzip_kb"] < WEIGHT_BOUND_KB}
        results["within_bound"] = all(page["within_bound"] for page in results["pages"].values())
        return results
    finally:
        for process in reversed(processes):
            _stop(process)
        for database in databases.values():
            await _drop(database)


def rows(results: dict) -> list[str]:
    """The report's rows (bench/report.py): one per page."""
    found = results.get("console")
    if not found:
        return []
    return [f"| console: {name} (`GET {page['path']}`) | p50 {page['p50_ms']} ms, p95 {page['p95_ms']} ms "
            f"(server CPU {page['cpu_ms']['total']} ms a page); "
            f"{page['gzip_kb']} KB gzip with its scripts and styles | bounds: p95 {found['bound_p95_ms']:g} ms, "
            f"{found['bound_weight_kb']:g} KB | {'within' if page['within_bound'] else '**missed**'} |"
            for name, page in found["pages"].items()]


async def run(stage) -> dict:
    """The step of `python -m bench` (bench/__main__.py)."""
    results = await run_in(stage.env, stage.args.console_samples, 20, stage.tmp)
    say("console: " + ", ".join(f"{name} p95 {page['p95_ms']} ms, {page['gzip_kb']} KB"
                                for name, page in results["pages"].items()))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("bench.console needs DATABASE_URL and REDIS_URL", file=sys.stderr)
        return 2
    log_dir = Path(tempfile.mkdtemp(prefix="herald-bench-console-"))
    from bench.stage import Stage

    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(40), "SERVICE_TOKEN": secrets.token_urlsafe(40),
           "HERALD_ENV": "production", "HERALD_VAR_DIR": str(log_dir / "var"), "WORKER_METRICS_PORT": "0",
           "REDIS_URL": Stage._free_redis_db(os.environ["REDIS_URL"])}  # never a database someone uses
    try:
        results = asyncio.run(run_in(env, args.samples, args.warmup, log_dir))
    finally:
        redis.Redis.from_url(env["REDIS_URL"]).flushdb()  # the empty database this run took
    print(json.dumps(results, indent=2))
    for name, page in results["pages"].items():
        cpu = page["cpu_ms"]
        print(f"{name:9} p50 {page['p50_ms']:>6} ms  p95 {page['p95_ms']:>6} ms (bound {P95_BOUND_MS})  "
              f"{page['gzip_kb']:>6} KB gzip with its scripts and styles (bound {WEIGHT_BOUND_KB}): "
              f"{'met' if page['within_bound'] else 'MISSED'}; server CPU a page {cpu['total']} ms "
              f"(console {cpu['console']}, platform {cpu['platform']}, identity {cpu['identity']})")
    shutil.rmtree(log_dir, ignore_errors=True)
    return 0 if results["within_bound"] else 1


if __name__ == "__main__":
    sys.exit(main())
