"""Re-authentication ("sudo mode"): presenting a credential again on a session before the writes
that could hand the account to someone else."""
