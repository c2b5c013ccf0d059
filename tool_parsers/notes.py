"""A parser's note: a stable code, its parameters, and the English text.

The probe prints the English ``text``; the chat says the note in the reader's language from the service's
catalogue (service/messages/pasted.yaml, key = ``code``, placeholders = ``params``), which this package
cannot import. Each parser module lists its codes and English templates in ``NOTES``; a test checks that
every template is the catalogue's English text, so the two never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Note:
    """One finding that is not a fact ("iperf3: 12 TCP retransmits")."""

    code: str
    text: str
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return self.text


def make(templates: dict[str, str], code: str, **params: Any) -> Note:
    """The note ``code`` of a module's ``templates``, its English text filled from ``params``."""
    return Note(code, templates[code].format(**params), params)
