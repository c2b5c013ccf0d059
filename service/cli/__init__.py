"""`bwdoctor`: the command line. Thin: it reads input, calls the engine or the service, prints, exits.

One module per command group (offline diagnose/ask, rules, serve, tokens, preflight, jobs); what they
share — `fail`, reading input, the engine, the database — is in common.py.

Exit codes: 0 success, 1 unexpected error (or failed lint/tests), 2 bad input or usage; preflight adds
3 (critical finding) and 4 (warning finding).
"""

from __future__ import annotations

import click

from bwdoctor.cli.jobs import jobs
from bwdoctor.cli.offline import ask, diagnose
from bwdoctor.cli.preflight import preflight
from bwdoctor.cli.rules import rules
from bwdoctor.cli.serve import serve
from bwdoctor.cli.tokens import tokens

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bandwidth-doctor")
def cli() -> None:
    """Bandwidth Doctor: finds why distributed training is slow, with the numbers."""


for _command in (diagnose, ask, rules, serve, tokens, preflight, jobs):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="bwdoctor")
