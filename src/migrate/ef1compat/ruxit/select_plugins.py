"""`ruxit.select_plugins`: a module of the EF1 engine (how the agent chose the plugins to activate), which public
ActiveGate plugins import without using it (`from ruxit.select_plugins import BaseActivationContext, selectors`,
copied from plugin to plugin). Its names are here so that such a plugin imports and runs as on EF1; EF2 has no
counterpart of the engine, and using one (making a BaseActivationContext, reading a member of `selectors`) raises
NotCarriedToEF2, which MIGRATION.md lists with the import's line.
"""
from .api.exceptions import NotCarriedToEF2


def _not_carried(name):
    return NotCarriedToEF2(
        f"ruxit.select_plugins.{name}",
        "it is the EF1 engine's (how the agent chose the plugins to activate), which EF2 has no counterpart of",
        "Read what the plugin needs from self.config, or self.activation of a remote plugin.",
    )


class BaseActivationContext:
    """The engine's activation context: importable, not usable on EF2."""

    def __init__(self, *_args, **_kwargs):
        raise _not_carried("BaseActivationContext")


class _Selectors:
    """The engine's `selectors`: importable; each member raises NotCarriedToEF2."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise _not_carried(f"selectors.{name}")


selectors = _Selectors()
