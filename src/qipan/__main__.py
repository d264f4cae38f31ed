"""``python -m qipan`` runs the command line."""

from qipan.cli.main import main

main()
