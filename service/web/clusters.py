"""Cluster view pages (/clusters, /nodes/{id}) and server-drawn SVG charts (/charts/*.svg)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["web: clusters"])
