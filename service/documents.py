"""Reading a JSON or YAML document a person or a CI job hands the CLI, within a budget.

Job files and fact files come from anywhere (a CI pipeline, a pasted snippet), so they are
bounded before they are parsed: their size, the nesting depth of JSON (checked by a scan that
never recurses, shared with the service's request limits) and YAML through the bounded loader
(no anchors or aliases, limited depth and size). Every refusal is a DocumentError with a
one-line message; nothing here raises anything else.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate
from typing import Any

import yaml

from bwdoctor.engine import safe_load

MAX_DOCUMENT_CHARS = 1_000_000
MAX_DEPTH = 32

_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes


class DocumentError(ValueError):
    """The text is not a JSON or YAML document within the limits; the message says why in one line."""


def json_depth_exceeds(body: bytes, max_depth: int) -> bool:
    """True when the JSON text nests arrays/objects deeper than max_depth (brackets in strings skipped).

    Linear and without recursion: escapes and strings are cut out by regular expressions that
    cannot backtrack, and the running depth is summed over the brackets left; malformed text is
    left to the parser to refuse.
    """
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return False
    brackets = _STRING.sub(b"", _ESCAPE.sub(b"", body)).translate(None, _NOT_BRACKETS)
    return max(accumulate(array("b", brackets.translate(_STEPS))), default=0) > max_depth


def parse_document(text: str, *, what: str = "input", max_chars: int = MAX_DOCUMENT_CHARS) -> Any:
    """The data of a JSON or YAML text, or DocumentError saying what is wrong and where."""
    if len(text) > max_chars:
        raise DocumentError(f"{what} is larger than {max_chars} characters")
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        encoded = text.encode("utf-8", "surrogatepass")
        if json_depth_exceeds(encoded, MAX_DEPTH):
            raise DocumentError(f"{what} is nested deeper than {MAX_DEPTH} levels")
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            pass  # YAML is a superset of JSON: let the YAML reader name the problem
    try:
        return safe_load(text, max_chars=max_chars)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise DocumentError(f"{what} is neither valid JSON nor valid YAML{where}: {exc.problem}") from None
    except (yaml.YAMLError, ValueError, RecursionError, OverflowError) as exc:
        # e.g. an integer of more digits than Python converts (ValueError from the int constructor)
        problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DocumentError(f"{what} is neither valid JSON nor valid YAML: {problem}") from None
