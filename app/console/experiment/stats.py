"""What the results can honestly say: each variant's raw counts and rate, whether a leader can be
called, and whether the split of views matches the weights (a sample-ratio mismatch).

A leader is called only when every variant has at least :data:`MIN_VIEWS` views and the best rate
beats the runner-up's in a one-sided two-proportion z-test at 95 % (the test the pages system's
auto-stop runs, models/pages/page.py ``stop_rule_met``); otherwise the page says there is not enough
data, and names the variant ahead only as "ahead so far"."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

MIN_VIEWS = 100  # the least the pages system's auto-stop accepts per variant
Z_95 = 1.6449
SRM_P = 0.001  # a split this unlikely under the weights is reported as a mismatch


@dataclass
class Row:
    id: str
    name: str
    weight: int
    views: int
    conversions: int
    visitors: int | None = None  # the pixel's sessions on that side; None when the runtime cannot say
    pixel_conversions: int | None = None

    @property
    def rate(self) -> float:
        return self.conversions / self.views if self.views else 0.0


@dataclass
class Verdict:
    rows: list[Row]
    leader: Row | None = None  # called at 95 %
    ahead: Row | None = None  # the best rate so far, called or not
    confidence: float | None = None  # Φ(z) of the best against the runner-up
    enough: bool = False  # every variant has MIN_VIEWS: below it the z-test's figure means little, so it is not shown
    reason: str = ""
    mismatch: str | None = None
    notes: list[str] = field(default_factory=list)


def _phi(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


def chi2_survival(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable with ``df`` (a whole number ≥ 1) degrees of freedom."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        return math.exp(-half) * sum(half ** i / math.factorial(i) for i in range(df // 2))
    tail = math.erfc(math.sqrt(half))
    return tail + math.exp(-half) * sum(half ** (i - 0.5) / math.gamma(i + 0.5) for i in range(1, (df + 1) // 2))


def sample_ratio(rows: list[Row]) -> str | None:
    """A sentence when the views are split unlike the weights (chi-square, p < 0.001), else None."""
    shares = [row for row in rows if row.weight > 0]
    total = sum(row.views for row in shares)
    if len(shares) < 2 or total < 2 * MIN_VIEWS:
        return None
    weights = sum(row.weight for row in shares)
    chi2 = sum((row.views - total * row.weight / weights) ** 2 / (total * row.weight / weights) for row in shares)
    if chi2_survival(chi2, len(shares) - 1) >= SRM_P:
        return None
    split = ", ".join(f"{row.name} {row.views / total:.0%} (weight {row.weight} %)" for row in shares)
    return (f"The views are not split as the weights say ({split}). Something other than chance is sending "
            "visitors to one side (a cache, a redirect, bots): check that before trusting the results.")


def verdict(rows: list[Row]) -> Verdict:
    found = Verdict(rows, mismatch=sample_ratio(rows))
    if len(rows) < 2:
        found.reason = "A test needs at least two variants."
        return found
    if not any(row.views for row in rows):
        found.reason = "No views yet: nobody has seen the page since the test started."
        return found
    ranked = sorted(rows, key=lambda row: (row.rate, row.views), reverse=True)
    first, second = ranked[0], ranked[1]
    found.ahead = first if first.rate > second.rate else None
    fewest = min(rows, key=lambda row: row.views)
    pooled_n = first.views + second.views
    if first.views and second.views:
        pooled = (first.conversions + second.conversions) / pooled_n
        spread = math.sqrt(pooled * (1 - pooled) * (1 / first.views + 1 / second.views))
        if spread:
            found.confidence = _phi((first.rate - second.rate) / spread)
    found.enough = fewest.views >= MIN_VIEWS
    if not found.enough:
        found.reason = (f"Not enough data to call a leader: every variant needs at least {MIN_VIEWS} views "
                        f"({fewest.name} has {fewest.views}).")
    elif found.ahead is None:
        found.reason = "No leader: the best variants convert at the same rate."
    elif found.confidence is None or found.confidence < 0.95:
        found.reason = ("No leader yet: the difference between the two best variants could still be chance "
                        "(less than 95 % confidence).")
    else:
        found.leader = first
        found.reason = f"{first.name} leads with at least 95 % confidence over {second.name}."
    return found


def rows_of(experiment: dict, pixel: dict | None) -> list[Row]:
    """The experiment's variants with, when the runtime answered, the pixel's visitors beside them."""
    sides = {item["Variant"]: item for item in (pixel or {}).get("Variants") or []}
    rows = []
    for item in experiment.get("Variantes") or []:
        side = sides.get(item["Id"])
        rows.append(Row(item["Id"], item["Name"], int(item["Weight"]), int(item["Views"]), int(item["Conversions"]),
                        visitors=(int(side["Visitors"]) if side else 0) if pixel is not None else None,
                        pixel_conversions=(int(side["Conversions"]) if side else 0) if pixel is not None else None))
    return rows
