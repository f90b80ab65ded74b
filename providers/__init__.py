"""Provider plug-ins, one small interface per channel."""
