"""The EF1 plugin API (`ruxit.api`): base_plugin, exceptions, data, events, selectors, snapshot, topology_builder."""
