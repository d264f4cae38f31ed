"""``python -m qipan.server``: the same as ``qipan serve``."""

import typer

from qipan.server.cli import serve_command

if __name__ == "__main__":
    typer.run(serve_command)
