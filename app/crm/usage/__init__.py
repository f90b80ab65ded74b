"""The account's CRM usage with the platform's counters (contract F, rule 7)."""
