"""The bench's report: the machine it ran on, the Markdown table (accept, two-worker, scale and the
other steps' rows) and the plans."""

from __future__ import annotations

import os
import platform as host_platform

import psutil

from bench import console, idle, pages, providers_e2e, runtime, smtp_e2e


def _cpu(stream: dict) -> str:
    """Where a request's CPU went (bench/cpu.py), when measured."""
    spent = stream.get("cpu_us")
    if not spent:
        return ""
    return (f"; CPU a request: server {spent['server_cpu_us']} µs, PostgreSQL {spent['database_cpu_us']} µs, "
            f"Redis {spent['redis_cpu_us']} µs")


def _accept_row(label: str, stream: dict, floor: dict) -> str:
    return (f"| {label} | {stream['rps']} req/s, p50 {stream['p50_ms']} ms, p99 {stream['p99_ms']} ms, "
            f"errors {stream['errors']}{_cpu(stream)} | floor: {floor['rps']} req/s, p50 {floor['p50_ms']} ms, "
            f"p99 {floor['p99_ms']} ms{_cpu(floor)} | **{stream['ratio']}** (median of rounds "
            f"{stream['round_ratios']}) |")


def accept_rows(results: dict, concurrency: int) -> list[str]:
    rows = []
    for key, workers in (("accept", 1), ("two_workers", 2)):
        found = results.get(key)
        if not found:
            continue
        label = f"accept, POST /v1/emails/send, c={concurrency}, {workers} HTTP worker{'s' * (workers > 1)}"
        rows.append(_accept_row(label + ", no Idempotency-Key", found["herald"], found["floor"]))
        if "herald_idempotent" in found:
            rows.append(_accept_row(label + ", a new Idempotency-Key each", found["herald_idempotent"],
                                    found["floor"]))
        for level, summary in (found.get("low_concurrency") or {}).items():
            rows.append(_latency_row(level, summary))
    return rows


def _latency_row(concurrency: str, summary: dict) -> str:
    """Accept's p99 at a low concurrency against the floor's plus 5 ms (issue 46)."""
    floor = summary["floor"]
    herald = ", ".join(f"{name.replace('herald_idempotent', 'keyed').replace('herald', 'no key')} p50 "
                       f"{summary[name]['p50_ms']} ms, p99 {summary[name]['p99_ms']} ms"
                       for name in ("herald", "herald_idempotent"))
    verdict = "met" if all(summary[name]["within_bound"] for name in ("herald", "herald_idempotent")) \
        else "**not met**"
    return (f"| accept latency, c={concurrency}, 1 HTTP worker | {herald} | floor p50 {floor['p50_ms']} ms, "
            f"p99 {floor['p99_ms']} ms; bound p99 {summary['herald']['p99_bound_ms']} ms | {verdict} |")


def scale_rows(results: dict) -> list[str]:
    found = results.get("scale")
    if not found:
        return []
    seed = found["seed"]
    rows = [f"| scale: seed {found['rows']:,} request logs + {found['rows']:,} messages | {seed['total_s']} s "
            f"(logs {seed['request_logs_s']} s, messages {seed['messages_s']} s, events "
            f"{seed['message_events_s']} s, indexes {seed['build_indexes_s']} s, analyze {seed['analyze_s']} s"
            f"{', rollups %s s' % seed['rollups_s'] if 'rollups_s' in seed else ''})"
            " | | |"]
    for route in found["routes"]:
        bound = f"{route.get('bound_ms', 50):.0f} ms"
        verdict = f"under {bound}" if route["under_bound"] else f"**over {bound}**"
        rows.append(f"| {route['name']} | p50 {route['p50_ms']} ms, p95 {route['p95_ms']} ms | p95 bound {bound} | "
                    f"{verdict} |")
    return rows


def plans_text(results: dict) -> str:
    found = results.get("scale")
    if not found:
        return ""
    out = []
    for name, plan in found["plans"].items():
        out += [f"--- {name}", plan, ""]
    return "\n".join(out)


def machine() -> dict:
    return {"cores": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
            "python": host_platform.python_version(), "platform": host_platform.platform(terse=True)}


def markdown(report: dict) -> str:
    accept, batch = report["results"].get("accept"), report["results"].get("batch")
    lines = [
        f"Herald benchmark, {report['date']} on {report['machine']['cores']} cores, "
        f"{report['machine']['memory_gib']} GiB (`{report['command']}`)"
        + (f"; PostgreSQL {pg.get('server_version')}, autovacuum {pg.get('autovacuum')}"
           if (pg := report["results"].get("postgres")) else ""),
        "",
        "| measure | Herald | baseline | ratio |",
        "|---|---|---|---|",
        *accept_rows(report["results"], report["parameters"]["concurrency"]),
    ]
    if batch:
        lines += [f"| batch, 500 items | {batch['messages_per_second']} messages/s, p50 {batch['p50_ms']} ms, "
                  f"p99 {batch['p99_ms']} ms, errors {batch['errors']} | | |"]
    e2e = report["results"].get("end_to_end")
    if e2e:
        noop = report["results"]["noop_baseline"]
        lines += [
            f"| end to end at {e2e['offered_rate']}/s: 202 to sink | p50 {e2e['latency_p50_ms']} ms, "
            f"p99 {e2e['latency_p99_ms']} ms; {e2e['delivered']}/{e2e['accepted']} delivered, "
            f"{e2e['delivered_per_second']}/s | no-op actor: {noop['messages_per_second']}/s | |",
            f"| relay lag (commit to enqueue) | p50 {e2e['relay_lag_p50_ms']} ms, p95 {e2e['relay_lag_p95_ms']} ms"
            " | | |",
        ]
    memory = ", ".join(f"{name} {mib} MiB" for name, mib in report["peak_rss_mib"].items())
    lines += scale_rows(report["results"])
    lines += smtp_e2e.rows(report["results"]) + providers_e2e.rows(report["results"]) + idle.rows(report["results"])
    lines += runtime.rows(report["results"]) + pages.rows(report["results"]) + console.rows(report["results"])
    lines += [f"| peak RSS | {memory} | | |"]
    if accept:
        lines += [f"| load generator CPU share (accept) | {accept['herald']['generator_cpu_share']} of one core | | |"]
    return "\n".join(lines) + "\n"
