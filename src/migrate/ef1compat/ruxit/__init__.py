"""The `ruxit` names EF1 plugins import, as plugin-review's compatibility layer provides them on Extensions 2.0.

Not Dynatrace's EF1 plugin SDK: a small re-implementation of the parts plugins use (ruxit.api.*), which records
what a plugin reports so that the layer (ef1compat/__init__.py) can send it through the EF2 Python SDK. A module of
`ruxit` it does not provide (the engine's own, such as ruxit.plugin_state_machine) fails to import, saying so.
"""
import importlib.abc
import sys


class _NotProvided(importlib.abc.MetaPathFinder):
    """Asked last, for a ruxit module no other finder found: an error that says why, not just "no module"."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith("ruxit."):
            raise ModuleNotFoundError(
                f"{fullname} is not part of plugin-review's EF1 compatibility layer, which provides ruxit.api's "
                "base_plugin, exceptions, data, events, selectors, snapshot and topology_builder (and the names of "
                "ruxit.select_plugins, which plugins import unused): EF2 has no counterpart of the EF1 engine's other "
                "modules (MIGRATION.md lists the line that imports it)",
                name=fullname,
            )
        return None


if not any(isinstance(f, _NotProvided) for f in sys.meta_path):
    sys.meta_path.append(_NotProvided())
