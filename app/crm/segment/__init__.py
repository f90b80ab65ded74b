"""Segments: rule trees over contacts, validated and compiled to one SQL query on the account's rows."""
