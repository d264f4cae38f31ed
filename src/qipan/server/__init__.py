"""The qipan server: HTTP API, WebSockets per seat, persistence, AI seats, the web client.

Start it with ``qipan serve`` (or ``python -m qipan.server``); build the ASGI app yourself with
:func:`create_app`.
"""

from qipan.server.app import create_app

__all__ = ["create_app"]
