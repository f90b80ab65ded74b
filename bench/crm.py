"""The CRM's bench: bulk import and the segment reach preview (docs/crm.md, "Bench").

    python -m bench.crm [--rounds 20] [--preview-runs 20]

Needs DATABASE_URL and REDIS_URL (the machine's servers). Creates its own database
(``herald_bench_<id>_crm``), migrates it, starts ``herald serve crm`` on a free port, and drops the
database at the end.

1. bulk: ``--rounds`` calls of ``POST /internal/v1/tenants/{t}/contatos/lote`` with 5,000 new
   contacts each (e-mail, phone, name and two attributes: every PII field sealed, both blind
   indexes computed), over HTTP with the service credential: wall time per call, p50 and max;
   bound: every call under 2 s. With the default 20 rounds the account then holds 100,000 contacts.
2. preview: the reach of four rule trees (an attribute equality, a numeric comparison, a list
   membership with a consent condition, a three-branch OR) over those contacts, ``--preview-runs``
   times each, through the service function the route calls (no identity server needed):
   p50 and p95, after ``VACUUM ANALYZE`` (what autovacuum does shortly after a bulk load);
   bound: p95 under 500 ms.

Exit status 1 when a bound is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import asyncpg
import httpx

from bench.stage import ROOT, free_port
from kit.settings import load_settings, replace_database

BULK = 5000
BULK_BOUND = 2.0
PREVIEW_BOUND = 0.5


def contacts(round_: int) -> list[dict]:
    return [{"email": f"p{round_}-{i}@bench.example.com", "telefone": f"+55119{round_:02d}{i:06d}",
             "nome": f"Pessoa {round_}-{i}", "atributos": {"plano": ("pro", "free", "team")[i % 3], "idade": i % 90}}
            for i in range(BULK)]


async def preview(env: dict[str, str], tenant: str, list_id: str, runs: int) -> dict[str, list[float]]:
    os.environ.update(env)
    from tortoise import Tortoise
    from tortoise.transactions import in_transaction

    from app.crm.segment.service import reach
    from models import tortoise_config

    await Tortoise.init(config=tortoise_config(load_settings(), ["crm"], pool_max=2))
    # What autovacuum does a moment after a bulk load (as bench/scale.py does after seeding):
    # statistics for the planner and the visibility map for index-only work.
    await Tortoise.get_connection("crm").execute_script("VACUUM ANALYZE contacts")
    trees = {
        "attribute =": {"atributo": "plano", "op": "igual", "valor": "pro"},
        "attribute >": {"atributo": "idade", "op": "maior", "valor": 60},
        "list and consent": {"todas": [{"lista": list_id}, {"canal": "sms", "recebe": True}]},
        "three-way or": {"qualquer": [{"atributo": "plano", "op": "igual", "valor": "team"},
                                      {"campo": "inscrito", "op": "igual", "valor": False},
                                      {"nao": {"atributo": "idade", "op": "existe"}}]},
    }
    times: dict[str, list[float]] = {}
    try:
        for name, tree in trees.items():
            times[name] = []
            for _ in range(runs + 2):
                start = time.perf_counter()
                async with in_transaction("crm") as conn:
                    found = await reach(conn, tenant, tree)
                times[name].append(time.perf_counter() - start)
            times[name] = times[name][2:]  # warm-up
            print(f"  {name:18} reach {found.count}")
    finally:
        await Tortoise.close_connections()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--preview-runs", type=int, default=20)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("bench.crm needs DATABASE_URL and REDIS_URL", file=sys.stderr)
        return 2
    database = replace_database(os.environ["DATABASE_URL"], f"herald_bench_{secrets.token_hex(3)}_crm")
    port = free_port()
    env = {**os.environ, "CRM_DATABASE_URL": database, "SECRET_KEY": secrets.token_urlsafe(40),
           "SERVICE_TOKEN": secrets.token_urlsafe(40), "HERALD_ENV": "development", "LOG_LEVEL": "WARNING",
           "HERALD_VAR_DIR": tempfile.mkdtemp(prefix="herald-bench-crm-")}
    subprocess.run([sys.executable, "-m", "herald.cli", "migrate", "crm"], env=env, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    server = subprocess.Popen([sys.executable, "-m", "herald.cli", "serve", "crm", "--port", str(port)], env=env,
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    tenant = f"acc_{secrets.token_hex(8)}"
    failed = False
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        headers = {"Authorization": f"Bearer {env['SERVICE_TOKEN']}"}
        prefix = f"{base}/internal/v1/tenants/{tenant}"
        walls = []
        with httpx.Client(timeout=60, headers=headers) as http:
            for round_ in range(args.rounds):
                body = {"contatos": contacts(round_)}
                start = time.perf_counter()
                answer = http.post(f"{prefix}/contatos/lote", json=body)
                walls.append(time.perf_counter() - start)
                assert answer.status_code == 200 and answer.json()["criados"] == BULK, answer.text[:300]
            made = http.post(f"{prefix}/listas", json={"nome": "Bench"}).json()["lista"]["id"]
            ids = [c["id"] for c in http.get(f"{prefix}/contatos", params={"limit": 200}).json()["contatos"]]
            http.post(f"{prefix}/listas/{made}/membros", json={"contatos": ids})
        print(f"bulk of {BULK}: p50 {statistics.median(walls):.3f} s, max {max(walls):.3f} s "
              f"over {len(walls)} calls (bound {BULK_BOUND} s)")
        failed |= max(walls) >= BULK_BOUND
        print(f"preview over {args.rounds * BULK} contacts:")
        times = asyncio.run(preview(env, tenant, made, args.preview_runs))
        for name, values in times.items():
            values.sort()
            p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
            print(f"  {name:18} p50 {statistics.median(values) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
                  f"(bound {PREVIEW_BOUND * 1000:.0f} ms)")
            failed |= p95 >= PREVIEW_BOUND
    finally:
        server.terminate()
        server.wait(15)
        asyncio.run(_drop(database))
        shutil.rmtree(env["HERALD_VAR_DIR"], ignore_errors=True)
    return 1 if failed else 0


async def _drop(database: str) -> None:
    admin = database.rsplit("/", 1)[0] + "/postgres"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{database.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await conn.close()


if __name__ == "__main__":
    sys.exit(main())
