"""Where ``qipan arena`` and ``qipan simulate`` play their games: ``--jobs J`` worker processes on
this machine, or a Ray cluster (``--ray``, ``--ray-address ADDRESS``); see :mod:`qipan.ai.runner`.

``--ray`` is a flag and the address an option of its own, rather than one ``--ray [ADDRESS]``
with a value that may be left out: click would take the word after a bare ``--ray`` for it.

>>> ray_cluster(False, None) is None, ray_cluster(True, None), ray_cluster(False, "10.0.0.5:6379")
(True, RayCluster(address=None, num_cpus=None), RayCluster(address='10.0.0.5:6379', num_cpus=None))
"""

from __future__ import annotations

from typing import Annotated

import typer

from qipan.ai.runner import JOBS_PER_CPU, RayCluster, check_address, max_jobs
from qipan.cli.numbers import whole_option
from qipan.core.errors import GameError


def _address(value: str) -> str:
    try:
        return check_address(value)
    except GameError as exc:
        raise typer.BadParameter(str(exc)) from None


Jobs = Annotated[int, whole_option("--jobs", "-j", help=f"worker processes on this machine, at most {JOBS_PER_CPU} "
                                   "per CPU", minimum=1, maximum=max_jobs())]
UseRay = Annotated[bool, typer.Option(
    "--ray", help="play the games on Ray: the cluster RAY_ADDRESS names, else a new local instance "
                  "(pip install 'qipan\\[ray]')")]  # rich markup would take [ray] for a style
RayAddress = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDRESS", parser=_address,
    help="play the games on the Ray cluster at ADDRESS: HOST:PORT as `ray start --head` prints it, "
         "ray://HOST:PORT, auto (a running cluster) or local (a new instance); implies --ray")]


def ray_cluster(ray: bool, address: str | None) -> RayCluster | None:
    """The Ray cluster the options ask for, or None to play on this machine."""
    return RayCluster(address) if ray or address is not None else None
