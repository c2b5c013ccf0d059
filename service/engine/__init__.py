"""The expert system: facts in, findings out. Pure: no database, no HTTP, no I/O beyond loading rule files."""

from service.engine.engine import Diagnosis, Engine, Finding, load_engine, rules_dirs_from_env
from service.engine.errors import EngineError, FactValidationError, RuleLoadError

__all__ = [
    "Diagnosis",
    "Engine",
    "EngineError",
    "FactValidationError",
    "Finding",
    "RuleLoadError",
    "load_engine",
    "rules_dirs_from_env",
]
