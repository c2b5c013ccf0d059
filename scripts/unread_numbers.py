"""Which numbers does the reader leave unread, grouped by the words around them?

Why: 'fact missed' is the largest corpus shortfall, and a missed fact is usually a number the
reader listed as not understood. Reading one case at a time tunes phrases; counting the unread
numbers of many questions by their family ('N samples/sec', 'N% GPU', 'N 张卡') shows which
unit or noun the reader lacks as a whole, so that a fix reads the family (a mechanism).

Usage: python scripts/unread_numbers.py [--top N] [FILE.yaml ...]
(default: the tuning files tests/corpus/tune_*.yaml and ../shared/corpus/*.yaml; the held-out
files are never read: that slice measures generalisation and must stay unseen.)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bwdoctor.chat.understanding import understand  # noqa: E402

#: The word after a number: a unit or noun (latin with / and %), or up to two CJK characters.
_AFTER = re.compile(r"\s*(%|[A-Za-z][A-Za-z/%.\-]*|[\u4e00-\u9fff]{1,2})")
#: The word before a number (latin or up to two CJK characters).
_BEFORE = re.compile(r"([A-Za-z][A-Za-z_\-]*|[\u4e00-\u9fff]{1,2})\W{0,3}$")


def default_files() -> list[Path]:
    """The tuning questions and the shared sample; never `holdout_*`."""
    files = sorted((ROOT / "tests" / "corpus").glob("tune_*.yaml"))
    return files + sorted((ROOT.parent / "shared" / "corpus").glob("*.yaml"))


def asks(path: Path) -> list[tuple[str, dict[str, object]]]:
    """The `ask` texts of one scenario file, each with the facts it expects."""
    if path.name.startswith("holdout_"):
        raise SystemExit(f"refusing held-out file {path.name}")
    cases = (yaml.safe_load(path.read_text("utf-8")) or {}).get("scenarios", [])
    return [(c["ask"], dict((c.get("expect") or {}).get("facts") or {}))
            for c in cases if isinstance(c, dict) and isinstance(c.get("ask"), str)]


def _missed(number: str, expected: dict[str, object], read: dict[str, object]) -> str | None:
    """The expected fact, not read, whose value is this number (the number is a missed fact)."""
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        return None
    for name, want in expected.items():
        if isinstance(want, (int, float)) and not isinstance(want, bool) and name not in read \
                and abs(float(want) - value) < 1e-9:
            return name
    return None


def family(question: str, start: int, end: int) -> str:
    """'before N after', the unit/noun right after the number and the word before it, lower-cased."""
    after = _AFTER.match(question, end)
    before = _BEFORE.search(question[max(0, start - 20):start])
    return f"{before.group(1).lower() if before else '-'} N {after.group(1).lower() if after else '-'}"


def main(argv: list[str] | None = None) -> int:
    """Print the most frequent families of unread numbers with two example contexts each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--unit", action="store_true", help="group by the word after the number only")
    parser.add_argument("--missed", action="store_true",
                        help="only numbers that are the value of an expected fact the reader missed")
    parser.add_argument("files", nargs="*", type=Path)
    opts = parser.parse_args(argv)
    groups: dict[str, list[str]] = defaultdict(list)
    total = 0
    for path in opts.files or default_files():
        for question, expected in asks(path):
            u = understand(question)
            for n in u.not_understood:
                fact = _missed(str(n["text"]), expected, u.facts) if opts.missed else None
                if opts.missed and fact is None:
                    continue
                start, end = int(n["start"]), int(n["end"])
                if question[start:end] != n["text"]:  # spans of a masked copy that changed length
                    start = question.find(n["text"])
                    end = start + len(n["text"])
                key = family(question, start, end) if start >= 0 else f"? N ? ({n['text']})"
                if opts.unit:
                    key = "N " + key.split(" N ", 1)[-1]
                if fact:
                    key = f"{key}  -> {fact}"
                groups[key].append(str(n["context"]))
                total += 1
    print(f"{total} unread numbers in {len(groups)} families")
    for key, contexts in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:opts.top]:
        print(f"{len(contexts):4d}  {key}")
        for c in contexts[:2]:
            print(f"        | {c[:110]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
