"""Passwords: hashing, the policy, and resetting a forgotten one."""
