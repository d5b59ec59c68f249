"""The topology builder's classes (`ruxit.api.topology_builder`), which plugins import for type hints
(`Dict[str, Device]`): the layer's own, those `self.topology_builder`, `create_group` and `create_device` return."""
from .results import Device, Group, TopologyBuilder

__all__ = ["Device", "Group", "TopologyBuilder"]
