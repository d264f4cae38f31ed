"""The ``qipan`` command line: terminal play, perft, the engine protocol, replays and more."""
