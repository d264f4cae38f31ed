"""The five games, one package each; every game depends on qipan.core only."""
