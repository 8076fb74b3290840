from tests.actors import *  # noqa: F403
