"""What a rule may cost: lint-time limits on expressions and text templates.

A rule file is data a user can drop into a folder, so loading it must not let it spend the
service's CPU or memory. Expressions are CEL, which always terminates, but comprehensions
(`.all`, `.exists`, `.map`, `.filter`) nest: seven nested `.all()` over a literal list cost
seconds per diagnosis. A format spec sets a width (`{x:>100000000}` makes a 100 MB finding).
These checks refuse such rules at load, with the rest of lint's messages; the engine also
stops evaluating conditions past a per-diagnosis time budget (engine.DIAGNOSIS_BUDGET_S).
"""

from __future__ import annotations

import re

MAX_EXPRESSION_CHARS = 2000
MAX_COMPREHENSION_NESTING = 2
MAX_COMPREHENSIONS = 8
MAX_LIST_LITERAL = 64
MAX_STRING_LITERAL = 512
MAX_FORMAT_WIDTH = 40

_STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_MACRO = re.compile(r"\.\s*(?:all|exists|exists_one|map|filter)\s*\(")
_FORMAT_NUMBERS = re.compile(r"\d+")


def expression_cost_problem(text: str) -> str | None:
    """Why a condition costs too much to be allowed, or None."""
    if len(text) > MAX_EXPRESSION_CHARS:
        return f"expression longer than {MAX_EXPRESSION_CHARS} characters"
    for literal in _STRING_LITERAL.findall(text):
        if len(literal) - 2 > MAX_STRING_LITERAL:
            return f"a string literal longer than {MAX_STRING_LITERAL} characters"
    code = _STRING_LITERAL.sub("''", text)
    macro_starts = {m.end() - 1 for m in _MACRO.finditer(code)}  # the "(" of each comprehension
    if len(macro_starts) > MAX_COMPREHENSIONS:
        return f"more than {MAX_COMPREHENSIONS} comprehensions (.all/.exists/.map/.filter)"
    # A stack of open brackets: (is it a comprehension, items seen so far in a list literal).
    stack: list[tuple[str, int]] = []
    nesting = 0
    for position, char in enumerate(code):
        if char in "([{":
            kind = "macro" if position in macro_starts else char
            stack.append((kind, 1))
            if kind == "macro":
                nesting += 1
                if nesting > MAX_COMPREHENSION_NESTING:
                    return f"comprehensions nested more than {MAX_COMPREHENSION_NESTING} deep"
        elif char in ")]}" and stack:
            kind, _ = stack.pop()
            nesting -= kind == "macro"
        elif char == "," and stack and stack[-1][0] in "[{":
            kind, items = stack[-1]
            stack[-1] = (kind, items + 1)
            if items + 1 > MAX_LIST_LITERAL:
                return f"a list or map literal of more than {MAX_LIST_LITERAL} items"
    return None


def format_spec_problem(spec: str) -> str | None:
    """Why a template's format spec (`{fact:SPEC}`) is refused, or None: widths and precisions are bounded."""
    if any(int(number) > MAX_FORMAT_WIDTH for number in _FORMAT_NUMBERS.findall(spec)):
        return f"format spec {spec!r} asks for a width or precision above {MAX_FORMAT_WIDTH}"
    return None
