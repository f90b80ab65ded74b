"""Herald's benchmark harness: `python -m bench` (or `make bench`). See bench/README.md."""
