"""The accept statement alone: CPU a single send costs PostgreSQL and the calling process, with
no HTTP in the way. `python -m bench.statement [--shards 8,32] [--rounds 5 --sends 6000 --inflight 16 --recipients 1]`

It calls ``service.accept`` (the one accept statement, here of one single send a call) for one account,
``--inflight`` at a time, and reports per accept the CPU time of the bench process and of the
PostgreSQL backends of the bench database, for each counter shard count of ``--shards`` (report
and usage counters alike), in alternating rounds so that the machine's drift touches each alike.
The median of the rounds is printed; the rounds themselves follow it. ``--without-report-counters``
adds a round with the report rollups left out of the statement, and ``--without-indexes a,b`` one with
those indexes dropped for the round and built again after it: experiments, to size what they cost a
send, not settings (reports and the reads need them). ``--recipients N`` gives each accept N
messages (one request to N recipients): the difference to one recipient sizes what a statement costs
for being one, which is why concurrent single sends are written together (app/platform/message/coalesce.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import psutil

from bench.stage import Stage, say


def backends_cpu(database: str) -> float:
    total = 0.0
    for process in psutil.process_iter(["cmdline"]):
        if database in " ".join(process.info["cmdline"] or ()):
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system
    return total


async def run(args: argparse.Namespace) -> dict:
    stage = Stage(args)
    stage.services()
    await stage.prepare_database()
    from tortoise import connections
    from tortoise.context import TortoiseContext

    import models.platform.report as report
    import models.platform.usage as usage
    from app.platform.api_key.principal import KeyDirectory
    from app.platform.message import service, statement
    from app.platform.message.service import Draft, Item
    from kit.settings import load_settings
    from models import tortoise_config

    database = stage.env["PLATFORM_DATABASE_URL"].rsplit("/", 1)[1]
    rollup = statement.rollup_sql
    variants = [f"{shards} shards" for shards in args.shards] + (["no report counters"] if args.without_report_counters
                                                                  else [])
    if args.without_indexes:
        variants.append("without " + ",".join(args.without_indexes))
    rounds: dict[str, list[dict]] = {variant: [] for variant in variants}
    try:
        async with TortoiseContext() as context:
            await context.init(config=tortoise_config(load_settings(stage.env), ["platform"],
                                                      pool_max=args.inflight))
            conn = connections.get("platform")
            principal = await KeyDirectory().lookup(stage.key)
            gate = asyncio.Semaphore(args.inflight)

            async def send(index: int) -> None:
                drafts = [Draft(f"user{index}.{number}@example.com", "to", "Bench <bench@example.com>", "Hello",
                                {"Text": "hi there"}, None) for number in range(args.recipients)]
                async with gate:
                    await service.accept(conn, principal, "email", "email.send", [Item(drafts)],
                                         compare_bodies=False)

            for number in range(args.rounds):
                for variant in variants:
                    experiment = variant == "no report counters" or variant.startswith("without ")
                    statement.rollup_sql = (lambda *_, **__: "") if variant == "no report counters" else rollup
                    statement.write_text.cache_clear()  # its cached texts hold the rollups, or not
                    report.SHARDS = usage.SHARDS = args.shards[0] if experiment else int(variant.split()[0])
                    dropped = await _drop_indexes(conn, args.without_indexes) if variant.startswith("without ") else []
                    await asyncio.gather(*(send(index) for index in range(200)))  # warm: plans, pool, rows
                    cpu, backends, started = time.process_time(), backends_cpu(database), time.monotonic()
                    await asyncio.gather(*(send(index) for index in range(args.sends)))
                    seconds = time.monotonic() - started
                    rounds[variant].append({
                        "postgres_us": round(1e6 * (backends_cpu(database) - backends) / args.sends),
                        "bench_process_us": round(1e6 * (time.process_time() - cpu) / args.sends),
                        "per_second": round(args.sends / seconds)})
                    say(f"statement: round {number + 1}/{args.rounds}, {variant}: {rounds[variant][-1]}")
                    for definition in dropped:
                        await conn.execute_script(definition)
    finally:
        statement.rollup_sql = rollup
        statement.write_text.cache_clear()
        await stage.drop_database()
        stage.close()
        stage.close_services()
    return {variant: {"median": {name: statistics.median(found[name] for found in found_rounds)
                                 for name in ("postgres_us", "bench_process_us", "per_second")},
                      "rounds": found_rounds}
            for variant, found_rounds in rounds.items()}


async def _drop_indexes(conn, names: list[str]) -> list[str]:
    """Drops the named indexes of the bench database; their definitions, to build them again."""
    _, rows = await conn.execute_query("SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY($1)", [names])
    missing = set(names) - {row["indexname"] for row in rows}
    if missing:
        raise SystemExit(f"no such index: {', '.join(sorted(missing))}")
    for row in rows:
        await conn.execute_script(f'DROP INDEX "{row["indexname"]}"')
    return [row["indexdef"] for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shards", type=lambda text: [int(part) for part in text.split(",")], default=[32],
                        help="counter shard counts to compare, e.g. 8,32")
    parser.add_argument("--without-report-counters", action="store_true")
    parser.add_argument("--without-indexes", type=lambda text: text.split(","), default=[],
                        help="indexes to drop in a round of their own, e.g. messages_recipient_trgm,messages_subject_trgm")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sends", type=int, default=6000)
    parser.add_argument("--inflight", type=int, default=16)
    parser.add_argument("--recipients", type=int, default=1, help="messages an accept writes (one item, N recipients)")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
