"""Nodes: the machines probes report from, and every report they sent."""
