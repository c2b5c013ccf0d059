"""Job and fact files (issue 14, defect 6): what CI feeds `bwdoctor diagnose` and `bwdoctor preflight` is
bounded before it is parsed. Each hostile file ends the command with exit 2 and one line on stderr, as
its own process (a segfault or a memory blow-up would show as a signal or a timeout)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bwdoctor.cli import cli
from bwdoctor.documents import DocumentError, parse_document
from bwdoctor.engine import YamlLimitError, safe_load

BWDOCTOR = Path(sys.executable).with_name("bwdoctor")

# Nine levels of the "billion laughs": 10^9 strings once expanded.
LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8)
)
HOSTILE = {
    "laughs.yaml": LAUGHS,
    "cycle.yaml": "x: &a [*a]\n",
    "deep.yaml": "job:" + " [" * 10_000 + "\n",
    "deep-block.yaml": "".join("  " * i + f"k{i}:\n" for i in range(500)),
    "deep.json": "[" * 10_000 + "]" * 10_000,
    "huge-int.yaml": "job.nodes: 1" + "0" * 309 + "\n",
    "huge-int.json": '{"job.nodes": 1' + "0" * 309 + "}",
    "digits.yaml": "job.nodes: 1" + "0" * 5000 + "\n",
    "surrogate.json": '{"job.name": "\\ud800"}',
    "huge-float.yaml": "job.model_params_b: 1e308\n",
}


@pytest.mark.parametrize("command", ["diagnose", "preflight"])
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_job_file_is_exit_2_with_one_line(tmp_path, command, name):
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    result = CliRunner().invoke(cli, [command, str(path)])
    assert result.exit_code == 2, (result.exit_code, result.output[-2000:], result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output[-2000:]


@pytest.mark.parametrize("command", ["diagnose", "preflight"])
@pytest.mark.parametrize("name", ["laughs.yaml", "cycle.yaml"])
def test_alias_bombs_end_a_real_process_with_exit_2(tmp_path, command, name):
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    done = subprocess.run([str(BWDOCTOR), command, str(path)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr[-2000:]


def test_the_bounded_loader_refuses_anchors_aliases_and_depth_but_reads_ordinary_yaml():
    with pytest.raises(YamlLimitError):
        safe_load("a: &x 1\nb: *x\n")
    with pytest.raises(YamlLimitError):
        safe_load("[" * 65 + "]" * 65)
    assert len(str(safe_load("[" * 60 + "]" * 60))) == 120  # 60 levels are fine
    assert safe_load("job:\n  nodes: 8\n  name: 'a & b *c'\n") == {"job": {"nodes": 8, "name": "a & b *c"}}
    assert isinstance(YamlLimitError("x"), yaml.YAMLError)


def test_documents_are_json_or_yaml_or_one_clear_error():
    assert parse_document('{"job.nodes": 8}') == {"job.nodes": 8}
    assert parse_document("job.nodes: 8") == {"job.nodes": 8}
    for text in (HOSTILE["laughs.yaml"], HOSTILE["deep.json"], HOSTILE["digits.yaml"], "x" * 1_000_001):
        with pytest.raises(DocumentError) as caught:
            parse_document(text, what="job")
        assert "\n" not in str(caught.value)
