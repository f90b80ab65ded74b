"""Pixels (``/v1/pixels``): an account's tracking script for one site and its signed credential."""
