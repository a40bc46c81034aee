"""The bad-input suite uses play mode's and the trainer's fixtures."""

from tests.game.conftest import learner, other, rig, tables  # noqa: F401
from tests.trainer.conftest import _no_threads_and_fresh_cache  # noqa: F401
