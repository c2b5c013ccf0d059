"""Probe tokens: the bearer secrets probes present when they report."""
