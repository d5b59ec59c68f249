"""The EF1 plugin classes (`ruxit.api.base_plugin`): BasePlugin (a host plugin) and RemoteBasePlugin (a remote one).

The layer makes one object of the plugin's class per endpoint of the EF2 monitoring configuration, with:
- `self.config`: the endpoint's settings, keys as plugin.json's `properties` declare them (passwords in clear), each
  property the configuration lacks with its plugin.json default, or None;
- `self.json_config`: plugin.json, as a dict;
- `self.logger`: a logging.Logger, whose lines go to the extension's log;
- `self.results_builder`, and for a remote plugin `self.topology_builder` (groups and devices);
- `self.plugin_info`: plugin.json's `name` and `version`;
- for a remote plugin, `self.activation`: its endpoint's `endpoint_name` and `entity_id` (see ActivationContext);
and calls `initialize(**kwargs)` once, `query(**kwargs)` every minute and `close(**kwargs)` at the end, with
kwargs `config`, `json_config`, `associated_entity` (a host plugin's: the snapshot entry of the process group instance
the layer runs it for, as plugin.json's activation picks them; also `self.associated_entity`) and, for a host plugin,
`process_snapshot` (OneAgent's, read when first used; also `self.query_snapshot`).
"""
import logging

from .exceptions import NotCarriedToEF2
from .results import Recorder, ResultsBuilder, TopologyBuilder
from .snapshot import processes_of, select


class PluginInfo:
    """`self.plugin_info`: the plugin's `name` and `version`, as plugin.json gives them."""

    def __init__(self, json_config):
        self.name = json_config.get("name")
        self.version = json_config.get("version")


class ActivationContext:
    """`self.activation` of a remote plugin: the endpoint it runs for. On EF1 each endpoint was a configuration of
    its own, which the user named; on EF2 an endpoint is one of a monitoring configuration's `endpoints`.

    - `endpoint_name`: the monitoring configuration's description (its name in Dynatrace), with ` (endpoint <n>)`
      after it when the configuration has several endpoints, so that each has its own, as on EF1;
    - `entity_id`: the endpoint's id (digits, as text; plugins name files, test ids and devices after it), derived
      from the monitoring configuration's id and the endpoint's place in it, the same in every run and restart.
    """

    def __init__(self, entity_id, endpoint_name):
        self.entity_id = entity_id
        self.endpoint_name = endpoint_name


class BasePlugin:
    """A host plugin (OneAgent): reports with `self.results_builder`; finds process groups in the snapshot."""

    def __init__(self, config=None, json_config=None, logger=None, snapshot=None, **_ignored):
        self.config = dict(config or {})
        self.json_config = json_config or {}
        self.logger = logger or logging.getLogger(type(self).__module__)
        self.plugin_info = PluginInfo(self.json_config)
        self.associated_entity = None
        self._recorder = Recorder()
        self.results_builder = ResultsBuilder(self._recorder)
        # A function that returns the EF2 SDK's process snapshot (it raises where there is none).
        self._snapshot = snapshot
        # A host plugin's process snapshot of the current query (EF1's engine set it before each), read when first
        # used: its host_id is the host's entity id. None for a remote plugin (EF1 gave it none either).
        self.query_snapshot = None

    def initialize(self, **kwargs):
        pass

    def query(self, **kwargs):
        raise NotImplementedError("the plugin class defines no query()")

    def close(self, **kwargs):
        pass

    def _entries(self, call):
        if self._snapshot is None:
            raise NotCarriedToEF2(
                call,
                "a remote plugin has no process snapshot (in EF1 neither)",
                "Read what the plugin needs from its configuration instead.",
            )
        return self._snapshot().entries

    # Members of the EF1 engine's plugin class that this layer does not provide (Dynatrace's OneAgent plugin demo
    # calls them): a clear NotCarriedToEF2, which MIGRATION.md lists with its line, not an AttributeError.
    def _not_provided(self, call, instead, host_also):
        return NotCarriedToEF2(
            call,
            "the compatibility layer does not provide this member of the EF1 engine (MIGRATION.md lists its calls)",
            f"{instead}{'' if getattr(self, '_snapshot', None) is None else host_also} instead.",
        )

    def get_activation_context(self, *_args, **_kwargs):
        raise self._not_provided(
            "get_activation_context",
            "Read what the plugin needs from self.config",
            " or self.associated_entity (the snapshot entry of its process group instance)",
        )

    def get_monitored_entities(self, *_args, **_kwargs):
        raise self._not_provided(
            "get_monitored_entities",
            "Report with self.results_builder",
            " (on self.associated_entity's process group instance, or on another with entity_id=)",
        )

    def find_all_process_groups(self, selector=None):
        """The process groups (snapshot entries) the selector matches."""
        return select(self._entries("find_all_process_groups"), selector)

    def find_single_process_group(self, selector=None):
        """The first process group (snapshot entry) the selector matches, or None."""
        found = select(self._entries("find_single_process_group"), selector)
        return found[0] if found else None

    def find_all_processes(self, selector=None):
        """The processes the selector (a function of a process, as EF1's) matches, each as EF1 gave it: a
        (process group, process) pair, which also has the process's members (`.pid`). ruxit.api.snapshot's
        selectors (pgi_name, …) match the processes of the process groups they match."""
        return processes_of(self._entries("find_all_processes"), selector)

    def find_single_process(self, selector=None):
        """The first (process group, process) pair of find_all_processes(selector), or None."""
        found = self.find_all_processes(selector)
        return found[0] if found else None


class RemoteBasePlugin(BasePlugin):
    """A remote plugin (ActiveGate): reports on groups and devices of `self.topology_builder`."""

    def __init__(self, **kwargs):
        kwargs["snapshot"] = None
        super().__init__(**kwargs)
        self.topology_builder = TopologyBuilder(self._recorder, self.json_config.get("name"))
