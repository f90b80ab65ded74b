"""Reports of the dashboard (/api/reports/*): read from the rollup counters, never from messages."""
