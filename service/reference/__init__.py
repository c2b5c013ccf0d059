"""Reference material generated from the rules: the source article's heuristics with readable names,
links for rule sources, and the docs/ reference pages (facts, categories, sources)."""

from bwdoctor.reference.sources import SourceRef, heuristic_sections, source_ref, source_refs

__all__ = ["SourceRef", "heuristic_sections", "source_ref", "source_refs"]
