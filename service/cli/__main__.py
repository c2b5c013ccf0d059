"""`python -m service.cli`: the same as `bwdoctor`."""

from service.cli import main

main()
