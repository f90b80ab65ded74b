"""Rows of the bench's Markdown table for the accept, two-worker and scale steps, and the plans."""

from __future__ import annotations


def _accept_row(label: str, stream: dict, floor: dict) -> str:
    return (f"| {label} | {stream['rps']} req/s, p50 {stream['p50_ms']} ms, p99 {stream['p99_ms']} ms, "
            f"errors {stream['errors']} | floor: {floor['rps']} req/s, p50 {floor['p50_ms']} ms, "
            f"p99 {floor['p99_ms']} ms | **{stream['ratio']}** (median of rounds {stream['round_ratios']}) |")


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
    return rows


def scale_rows(results: dict) -> list[str]:
    found = results.get("scale")
    if not found:
        return []
    seed = found["seed"]
    rows = [f"| scale: seed {found['rows']:,} request logs + {found['rows']:,} messages | {seed['total_s']} s "
            f"(logs {seed['request_logs_s']} s, messages {seed['messages_s']} s, events "
            f"{seed['message_events_s']} s, indexes {seed['build_indexes_s']} s, analyze {seed['analyze_s']} s)"
            " | | |"]
    for route in found["routes"]:
        verdict = "under 50 ms" if route["under_bound"] else "**over 50 ms**"
        rows.append(f"| {route['name']} | p50 {route['p50_ms']} ms, p95 {route['p95_ms']} ms | p95 bound 50 ms | "
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
