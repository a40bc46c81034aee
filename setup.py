"""The engine's compiled kernel (blackjack/maths/kernel.c), built by ``pip install -e .`` in
place beside its sources: the rest of the project is declared in pyproject.toml.  Without a C
compiler the install goes on without it (``optional``), and the engine computes the same values
in numpy, several times more slowly."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "blackjack.maths.kernel",
            sources=["blackjack/maths/kernel.c"],
            # No fused multiply-adds: the kernel's sums are rounded as numpy rounds them.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
