"""The expert system: facts in, findings out. Pure: no database, no HTTP, no I/O beyond loading rule files.

This module is the engine's whole public API; code outside `service/engine/` imports from here
only (tests/engine/test_public_api.py keeps it so). The modules behind it are private.
"""

from bwdoctor.engine.catalogue import AGGREGATIONS, ClusterRule, FactCatalogue, FactSpec
from bwdoctor.engine.derived import LINK_CAPS, derive, inputs_of
from bwdoctor.engine.engine import (
    LINK_MEASUREMENTS,
    Comparison,
    Diagnosis,
    Engine,
    Finding,
    load_engine,
    rules_dirs_from_env,
    what_if_figures,
)
from bwdoctor.engine.errors import EngineError, FactValidationError, RuleLoadError
from bwdoctor.engine.loader import RuleBase, builtin_catalogue, builtin_rules_dir, lint_paths, load_rulebase
from bwdoctor.engine.model import CATEGORIES, KnowledgeEntry, Recommendation, Rule
from bwdoctor.engine.render import fill, format_value
from bwdoctor.engine.report import render_text
from bwdoctor.engine.ruletests import CaseResult, coverage_gaps, find_test_files, run_file
from bwdoctor.engine.safeyaml import YamlLimitError, safe_load

__all__ = [
    "AGGREGATIONS",
    "ClusterRule",
    "CATEGORIES",
    "LINK_CAPS",
    "LINK_MEASUREMENTS",
    "CaseResult",
    "Comparison",
    "Diagnosis",
    "Engine",
    "EngineError",
    "FactCatalogue",
    "FactSpec",
    "FactValidationError",
    "Finding",
    "KnowledgeEntry",
    "Recommendation",
    "Rule",
    "RuleBase",
    "RuleLoadError",
    "YamlLimitError",
    "builtin_catalogue",
    "builtin_rules_dir",
    "coverage_gaps",
    "derive",
    "inputs_of",
    "fill",
    "find_test_files",
    "format_value",
    "lint_paths",
    "load_engine",
    "load_rulebase",
    "render_text",
    "rules_dirs_from_env",
    "run_file",
    "safe_load",
    "what_if_figures",
]
