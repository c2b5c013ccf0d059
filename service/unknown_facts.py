"""Unknown fact names: a typo (`job.nodez: 8`) is kept and ignored by every rule, so the answer
silently comes out "undetermined". Each caller (CLI, API, chat) says so with these warnings:
the key and the closest known name; `--strict` (CI pre-flight) makes them an error.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from bwdoctor.engine import FactCatalogue

# A fact the probe or a client may send that no rule reads yet, but that is not a typo.
NOT_FACTS = frozenset({"lang"})


@dataclass(frozen=True)
class UnknownFact:
    """A key the catalogue does not know, and the known name it most resembles (if any)."""

    key: str
    closest: str | None

    def message(self, lang: str = "en", *, ignored: bool = True) -> str:
        if lang == "zh":
            hint = f"，是不是 {self.closest}？" if self.closest else "；参见 docs/facts.md"
            return f"未知的事实名 {self.key}{'（将被忽略）' if ignored else ''}{hint}"
        hint = f"; did you mean {self.closest}?" if self.closest else "; see docs/facts.md for the names"
        return f"unknown fact {self.key!r}{' (ignored)' if ignored else ''}{hint}"

    def to_dict(self, lang: str = "en") -> dict[str, str | None]:
        return {"code": "unknown_fact", "key": self.key, "closest": self.closest, "message": self.message(lang)}


def closest_fact(key: str, catalogue: FactCatalogue) -> str | None:
    """The known fact name nearest to `key` (difflib), or None when nothing is near."""
    names = catalogue.base_names()
    match = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    if not match and "." in key:  # `gpu.utilisation` → compare within the same prefix more loosely
        prefix = key.split(".", 1)[0] + "."
        match = difflib.get_close_matches(key, [n for n in names if n.startswith(prefix)], n=1, cutoff=0.4)
    return match[0] if match else None


def unknown_facts(keys: Iterable[str], catalogue: FactCatalogue) -> list[UnknownFact]:
    """Every key not in the catalogue (derived names count as known), in the order given."""
    return [
        UnknownFact(key, closest_fact(key, catalogue))
        for key in keys
        if isinstance(key, str) and key not in catalogue and key not in NOT_FACTS
    ]


def unknown_fact_warnings(
    keys: Iterable[str], catalogue: FactCatalogue, lang: str = "en"
) -> list[dict[str, str | None]]:
    """The API's `warnings` list (and the chat's not-understood entries): one dict per unknown key."""
    return [u.to_dict(lang) for u in unknown_facts(keys, catalogue)]


def refuse_unknown(warnings: list[dict[str, str | None]]) -> None:
    """`strict`: unknown fact names are a 422 naming each key and its closest known name."""
    if warnings:
        from bwdoctor.errors import Unprocessable

        first = warnings[0]
        raise Unprocessable(
            "strict: " + "; ".join(str(w["message"]).replace(" (ignored)", "") for w in warnings),
            code="unknown_fact",
            details={"key": first["key"], "closest": first["closest"], "unknown": warnings},
        )
