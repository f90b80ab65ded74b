"""Tortoise models of the runtime system (its own database and connection)."""

from models.runtime.analytics import Event, HeatCell, Rollup
from models.runtime.lead import Submission
from models.runtime.outbox import OutboxEntry
from models.runtime.pixel import Pixel
from models.runtime.replay import ReplayChunk, ReplaySession

__all__ = ["Event", "HeatCell", "OutboxEntry", "Pixel", "ReplayChunk", "ReplaySession", "Rollup", "Submission"]
