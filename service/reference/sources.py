"""Rule sources for people: "H21" or a bare URL becomes a readable name and a link.

Heuristic ids name a section of the source article; `sources.yaml` gives each a short name in
English and Chinese. The service shows them at /sources (anchors #h1…#h39) and the generated
docs/sources.md lists the same, so a tag on a page always leads somewhere readable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

SOURCES_FILE = Path(__file__).resolve().parent / "sources.yaml"
HEURISTIC = re.compile(r"^H(\d+)$")

# Sites by URL prefix (longest match wins): what a reader calls them.
SITES = {
    "arxiv.org/abs/": "arXiv",
    "docs.nvidia.com/deeplearning/nccl/": "NCCL user guide",
    "docs.nvidia.com/deploy/nvml-api/": "NVML API",
    "docs.nvidia.com/cuda/gpudirect-rdma": "GPUDirect RDMA",
    "docs.nvidia.com/networking/": "NVIDIA networking docs",
    "enterprise-support.nvidia.com/": "NVIDIA support",
    "docs.aws.amazon.com/": "AWS docs",
    "docs.docker.com/": "Docker docs",
    "docs.kernel.org/": "Linux kernel docs",
    "pytorch.org/docs/": "PyTorch docs",
    "www.deepspeed.ai/": "DeepSpeed",
    "iperf.fr/": "iperf3 docs",
    "github.com/": "GitHub",
}


@dataclass(frozen=True)
class SourceRef:
    """One source tag as shown: the tag itself, a readable name, and where it links."""

    tag: str
    name: str
    href: str | None
    external: bool


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data = yaml.safe_load(SOURCES_FILE.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def heuristic_sections(lang: str = "en") -> list[dict[str, Any]]:
    """The article's sections in order, each with its heuristics (id, anchor, name) in `lang`."""
    data = _data()
    sections = {key: {"key": key, "title": t.get(lang, t["en"]), "items": []} for key, t in data["sections"].items()}
    for tag, entry in data["heuristics"].items():
        sections[entry["section"]]["items"].append(
            {"tag": tag, "anchor": tag.lower(), "name": entry.get(lang, entry["en"])}
        )
    return [s for s in sections.values() if s["items"]]


def _humanise(text: str) -> str:
    text = re.sub(r"\.(html?|md|php)$", "", text)
    if text.lower().startswith("nccl-"):  # NCCL's anchors are its variables: nccl-ib-hca → NCCL_IB_HCA
        return text.upper().replace("-", "_")
    return re.sub(r"[-_+]+", " ", text).strip()


def readable_url(url: str) -> str:
    """'NCCL user guide: NCCL_SOCKET_IFNAME', 'GitHub NVIDIA/nccl #392', 'arXiv 1910.02054'…"""
    parts = urlsplit(url)
    where = parts.netloc + parts.path
    site = next((SITES[p] for p in sorted(SITES, key=len, reverse=True) if where.startswith(p)), parts.netloc)
    segments = [s for s in parts.path.split("/") if s]
    if parts.netloc == "github.com" and len(segments) >= 2:
        repo = "/".join(segments[:2])
        if len(segments) >= 4 and segments[2] in ("issues", "pull"):
            return f"GitHub {repo} #{segments[3]}"
        tail = segments[-1] if len(segments) > 2 else ""
        detail = _humanise(parts.fragment or tail)
        return f"GitHub {repo}" + (f": {detail}" if detail else "")
    if site == "arXiv" and segments:
        return f"arXiv {segments[-1]}"
    detail = _humanise(parts.fragment) if parts.fragment else (_humanise(segments[-1]) if segments else "")
    return f"{site}: {detail}" if detail else site


def source_ref(tag: str, lang: str = "en", *, base: str = "/sources") -> SourceRef:
    """A rule's source tag as a link: a heuristic to its anchor on `base`, a URL to itself."""
    entry = _data()["heuristics"].get(tag) if HEURISTIC.match(tag) else None
    if entry is not None:
        sep = "&" if "?" in base else "?"
        href = f"{base}{sep}lang={lang}#{tag.lower()}" if base.startswith("/") else f"{base}#{tag.lower()}"
        return SourceRef(tag, f"{tag} · {entry.get(lang, entry['en'])}", href, external=False)
    if tag.startswith(("https://", "http://")):
        return SourceRef(tag, readable_url(tag), tag, external=True)
    return SourceRef(tag, tag, None, external=False)


def source_refs(tags: Any, lang: str = "en", *, base: str = "/sources") -> list[SourceRef]:
    """Every tag of a finding's `source` (a list, or one string) as a SourceRef."""
    if isinstance(tags, str):
        tags = [tags]
    return [source_ref(str(t), lang, base=base) for t in tags or ()]
