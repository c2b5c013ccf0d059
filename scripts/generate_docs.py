#!/usr/bin/env python3
"""Write the generated reference pages in docs/ (facts.md, categories.md, sources.md) from the rules.

    python scripts/generate_docs.py           # rewrite them
    python scripts/generate_docs.py --check   # exit 1 naming the stale pages (what the test runs)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bwdoctor.engine import load_rulebase  # noqa: E402
from bwdoctor.reference.pages import pages  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report pages that differ from the rules")
    args = parser.parse_args()
    base = load_rulebase([], builtin_dir=ROOT / "rules")
    stale = []
    for name, text in pages(base).items():
        path = ROOT / "docs" / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote docs/{name}")
    if args.check and stale:
        print("stale: " + ", ".join(f"docs/{n}" for n in stale) + " (run python scripts/generate_docs.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
