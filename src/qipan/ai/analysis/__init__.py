"""Position analysis and game review: the best moves of a position with an evaluation each.

:func:`analyse` looks at one decision from the deciding player's view (hidden information enters
only through ``game.sample_state``, as for the agents) and answers the best moves, each with an
:class:`Evaluation` and a principal variation; :func:`review` does that for every decision of a
recorded game and :func:`verdict` grades each move against the best one. How each game is
analysed depends on the searcher of the level asked for (by default the strongest):

- a searcher with multi-PV (alpha-beta: Abalone, two-player Chinese Checkers) scores the best
  ``lines`` root moves exactly, and every included one, reading each line's continuation
  from its table;
- best-reply search (Chinese Checkers with three or more players) scores the root moves the same
  way (no table, so a line is its first move);
- the exact table of two-player Kelighine version 1 gives every move's winning chance;
- expectimax (other Kelighine) scores every move and estimates each line's winning chance by
  playouts;
- Sheng-Ke's turn search scores its candidate turns on sampled deals, and playouts on them
  estimate their winning chances;
- Tellstones (memory agents) and any other agent: playouts from states sampled from the view
  with the level's agents (winning rate per move).

A game makes the numbers readable with an optional ``analysis_balance(game, state, player,
value)`` in its ``ai`` module: the balance and its unit ("marbles", "moves", ...) at the end of a
line. See docs/analysis.md.

The package's modules: ``types`` (what an analysis answers), ``analyser`` (:func:`analyse`),
``searched`` and ``playouts`` (the analysers by method), ``readable`` (balances and mates),
``verdicts`` and ``reviews``; everything is imported from here.

>>> import qipan
>>> game = qipan.load("abalone")
>>> view = game.view(game.initial_state(), 0)
>>> result = analyse(game, view, lines=2, depth=2)
>>> len(result.lines), result.method, result.lines[0].move in game.legal_texts(game.initial_state())
(2, 'search', True)
"""

from qipan.ai.analysis.analyser import analysable, analyse, analysis_levels, strongest_level
from qipan.ai.analysis.playouts import (
    MAX_AGENT_PLAYOUT_PLIES,
    MAX_PLAYOUT_PLIES,
    MIN_PLAYOUTS,
    playout_result,
    smoothed_rate,
)
from qipan.ai.analysis.readable import search_evaluation
from qipan.ai.analysis.reviews import ReviewedMove, review, review_move
from qipan.ai.analysis.types import MAX_INCLUDE, MAX_LINES, Analyser, Analysis, Evaluation, Found, Line, Position
from qipan.ai.analysis.verdicts import DEFAULT_THRESHOLDS, EXACT_WIN, THRESHOLDS, Thresholds, thresholds, verdict

__all__ = [
    "DEFAULT_THRESHOLDS", "EXACT_WIN", "MAX_AGENT_PLAYOUT_PLIES", "MAX_INCLUDE", "MAX_LINES", "MAX_PLAYOUT_PLIES",
    "MIN_PLAYOUTS", "THRESHOLDS", "Analyser", "Analysis", "Evaluation", "Found", "Line", "Position", "ReviewedMove",
    "Thresholds", "analysable", "analyse", "analysis_levels", "playout_result", "review", "review_move",
    "search_evaluation", "smoothed_rate", "strongest_level", "thresholds", "verdict",
]
