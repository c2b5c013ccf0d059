"""Every follow-up question is a sentence in the user's language, never a bare fact name."""

from __future__ import annotations

import re

import pytest

from bwdoctor.engine import load_engine

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def engine():
    return load_engine(extra_dirs=[])


def test_every_fact_asks_a_question_in_english_and_chinese(engine):
    catalogue = engine.catalogue
    problems = []
    for name in catalogue.base_names():
        en, zh = catalogue.question(name, "en"), catalogue.question(name, "zh")
        if not (en.rstrip().endswith("?") and " " in en and name not in en.split()):
            problems.append(f"{name}: en {en!r}")
        if not (zh.rstrip().endswith("？") and CJK.search(zh)):
            problems.append(f"{name}: zh {zh!r}")
    assert not problems, "facts without a question sentence:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_questions_a_diagnosis_asks_are_sentences(engine, lang):
    facts = engine.validate_facts({"nic.speed_gbps": 25, "cpu.util_pct": 30, "nic.kind": "ethernet"})
    missing = engine.diagnose(facts, lang=lang).to_dict()["missing"]
    assert missing
    for item in missing:
        question = item["question"]
        assert question != item["fact"] and not re.fullmatch(r"[a-z_]+\.[a-z_.]+", question)
        assert (CJK.search(question) and question.endswith("？")) if lang == "zh" else question.endswith("?")
