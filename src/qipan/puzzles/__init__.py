"""Puzzles on qipan's engines: Chinese Checkers solitaire, 食棋 and Abalone "eject in N".

Pure Python, no third-party imports: every move comes from the game engines themselves.
"""
