"""The diagnosis as text a person reads in a terminal: verdict first, then each finding with its numbers."""

from __future__ import annotations

from typing import Any

from bwdoctor.engine.render import format_value

LABELS: dict[str, dict[str, Any]] = {
    "en": {
        "verdict": "Verdict",
        "critical": "CRITICAL",
        "warning": "WARNING",
        "info": "INFO",
        "evidence": "Evidence",
        "do": "What to do",
        "first": "first",
        "numbers": "Numbers",
        "missing": "To be more precise, tell me",
        "none": "No finding: not enough facts to judge.",
        "status": {
            "critical": "critical problems found",
            "warning": "problems found",
            "info": "only notes",
            "healthy": "healthy",
            "undetermined": "undetermined",
        },
        "source": "Source",
        "caveat": "Caveat",
    },
    "zh": {
        "verdict": "结论",
        "critical": "严重",
        "warning": "警告",
        "info": "提示",
        "evidence": "依据",
        "do": "建议",
        "first": "优先",
        "numbers": "关键数字",
        "missing": "补充以下信息可以判断得更准",
        "none": "没有结论：信息不足，无法判断。",
        "status": {
            "critical": "发现严重问题",
            "warning": "发现问题",
            "info": "仅有提示",
            "healthy": "健康",
            "undetermined": "无法判断",
        },
        "source": "来源",
        "caveat": "注意",
    },
}

KEY_NUMBERS = (
    "comm.grad_gbytes",
    "comm.link_gbps",
    "comm.sync_time_naive_s",
    "comm.allreduce_time_s",
    "comm.fraction",
    "net.efficiency_pct",
    "job.step_slowdown",
    "checkpoint.time_fraction",
)


def render_text(result: dict[str, Any], lang: str = "en", *, max_questions: int = 3) -> str:
    t = LABELS.get(lang, LABELS["en"])
    lines: list[str] = []
    findings = result.get("findings", [])
    status = result.get("status", "undetermined")
    lines.append(f"{t['verdict']}: {t['status'].get(status, status)}")
    if not findings:
        lines.append(t["none"])
    numbers = [(k, result.get("derived", {})[k]) for k in KEY_NUMBERS if k in result.get("derived", {})]
    if numbers:
        lines.append("")
        lines.append(f"{t['numbers']}:")
        for key, value in numbers:
            lines.append(f"  {key} = {format_value(value)}")
    first_rec_done = False
    for finding in findings:
        lines.append("")
        lines.append(f"[{t[finding['severity']]}] {finding['title']}  ({finding['category']}, {finding['rule']})")
        lines.append(f"  {finding['explanation']}")
        if finding.get("evidence"):
            shown = ", ".join(f"{e['fact']} = {format_value(e['value'])}" for e in _unique(finding["evidence"]))
            lines.append(f"  {t['evidence']}: {shown}")
        for rec in finding.get("recommendations", []):
            marker = f" ({t['first']})" if not first_rec_done else ""
            first_rec_done = True
            lines.append(f"  → {t['do']}{marker}: {rec['text']}")
            for scenario in rec.get("what_if", []):
                figures = ", ".join(
                    f"{k} {format_value(scenario['before'].get(k, '?'))} → {format_value(v)}"
                    for k, v in scenario["values"].items()
                )
                lines.append(f"      · {scenario['label']}: {figures}")
            if rec.get("caveat"):
                lines.append(f"      {t['caveat']}: {rec['caveat']}")
        lines.append(f"  {t['source']}: {', '.join(finding.get('source', []))}")
    missing = result.get("missing", [])[:max_questions]
    if missing:
        lines.append("")
        lines.append(f"{t['missing']}:")
        for item in missing:
            lines.append(f"  - {item['question']}  [{item['fact']}]")
    return "\n".join(lines) + "\n"


def _unique(evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    out = []
    for item in evidence:
        if item["fact"] not in seen:
            seen.add(item["fact"])
            out.append(item)
    return out
