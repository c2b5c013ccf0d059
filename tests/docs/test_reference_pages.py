"""Documentation that stands alone: the reference pages are generated from the rules and current,
and nothing in the repository links to a file outside it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bwdoctor.engine import CATEGORIES, load_rulebase
from bwdoctor.reference.pages import CATEGORY_MEANINGS, pages
from bwdoctor.reference.sources import heuristic_sections, source_ref

REPO = Path(__file__).resolve().parents[2]
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
# Where a user meets links: documentation, examples, rules, deployment files, pages and API text.
USER_FACING = ("README.md", "docs", "examples", "rules", "deploy", "service/web/templates", "Dockerfile",
               "docker-compose.yml", "service/nodes/schemas.py", "service/diagnosis/schemas.py",
               "service/preflight/schemas.py", "tool_parsers/__init__.py")
OUTSIDE = re.compile(
    r"(?<![\w/])(spec/(facts|categories|heuristics|interfaces|conventions)\.md|\.\./seed/|\.\./shared/spec)"
)


def tracked(*prefixes: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *prefixes],
                         cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [REPO / line for line in out.splitlines() if (REPO / line).is_file()]


@pytest.fixture(scope="module")
def rulebase():
    return load_rulebase([], builtin_dir=REPO / "rules")


def test_the_committed_reference_pages_are_what_the_rules_generate(rulebase):
    for name, text in pages(rulebase).items():
        committed = (REPO / "docs" / name).read_text(encoding="utf-8")
        assert committed == text, f"docs/{name} is stale: run python scripts/generate_docs.py"


def test_the_script_reports_stale_pages_and_exits_1():
    done = subprocess.run([sys.executable, "scripts/generate_docs.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_category_is_explained_and_every_fact_is_listed(rulebase):
    assert set(CATEGORY_MEANINGS) == set(CATEGORIES)
    facts_md = (REPO / "docs" / "facts.md").read_text(encoding="utf-8")
    for name in rulebase.catalogue.names():
        assert f"`{name}`" in facts_md
    categories_md = (REPO / "docs" / "categories.md").read_text(encoding="utf-8")
    for rule_id in rulebase.rules:
        assert f"`{rule_id}`" in categories_md


def test_every_source_a_rule_names_has_a_readable_name_and_a_link(rulebase):
    anchors = {item["tag"] for s in heuristic_sections() for item in s["items"]}
    sources_md = (REPO / "docs" / "sources.md").read_text(encoding="utf-8")
    for rule in rulebase.rules.values():
        for tag in rule.source:
            ref = source_ref(tag, "zh")
            assert ref.href, f"{rule.id}: source {tag!r} links nowhere"
            if tag.startswith("H"):
                assert tag in anchors and f'id="{tag.lower()}"' in sources_md
                assert re.search(r"[\u4e00-\u9fff]", ref.name), ref  # the name in the page's language
            else:
                assert ref.name != tag and "://" not in ref.name


def test_markdown_links_resolve_inside_the_repository():
    problems = []
    for md in tracked("*.md"):
        if "tests/corpus" in str(md):
            continue
        for target in MD_LINK.findall(md.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            resolved = (md.parent / path).resolve()
            if not resolved.is_relative_to(REPO) or not resolved.exists():
                problems.append(f"{md.relative_to(REPO)} → {target}")
            elif anchor and resolved.suffix == ".md" and re.match(r"h\d+$", anchor):
                if f'id="{anchor}"' not in resolved.read_text(encoding="utf-8"):
                    problems.append(f"{md.relative_to(REPO)} → {target} (no such anchor)")
    assert not problems, problems


def test_nothing_user_facing_points_at_a_file_outside_the_repository():
    problems = []
    for path in tracked(*USER_FACING):
        if path.suffix in (".png", ".svg", ".ico"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                problems.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:100]}")
    assert not problems, problems
