"""Herald's process-level pieces: configuration, the command line and the all-in-one supervisor."""

# The release (CHANGELOG.md; setup.cfg reads it from here). Bumped and tagged as docs/operations.md
# ("Releases") says.
__version__ = "0.1.0"
