"""`python -m bwdoctor.cli`: the same as `bwdoctor`."""

from bwdoctor.cli import main

main()
