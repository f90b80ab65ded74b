"""Plans and their per-key rate ceilings. A tenant's ``plan`` names one; an empty or unknown
plan uses the service default (RATE_LIMIT requests per RATE_LIMIT_WINDOW seconds)."""

from __future__ import annotations

# plan -> (requests, window in seconds)
RATE_LIMITS: dict[str, tuple[int, int]] = {
    "starter": (10, 1),
    "growth": (100, 1),
    "scale": (1000, 1),
}


def rate_limit_for(plan: str, default: tuple[int, int]) -> tuple[int, int]:
    return RATE_LIMITS.get(plan, default)
