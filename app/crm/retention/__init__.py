"""The account's retention policy (contract F, rule 1)."""
