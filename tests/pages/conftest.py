"""Every page read anonymously: the tables as after the bootstrap, the trainer's fixtures."""

from tests.game.conftest import learner, rig, tables  # noqa: F401
from tests.game.test_views import logged_in  # noqa: F401
from tests.trainer.conftest import _no_threads_and_fresh_cache  # noqa: F401
