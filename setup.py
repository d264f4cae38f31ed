"""Only the optional compiled core of the Abalone max level; everything else is in pyproject.toml.

Without a C compiler (or on a compiler without 128-bit integers) the extension is skipped with a
warning and qipan runs in pure Python: ``optional=True``."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "qipan.games.abalone._fast",
            sources=["src/qipan/games/abalone/_fast.c"],
            optional=True,
        )
    ]
)
