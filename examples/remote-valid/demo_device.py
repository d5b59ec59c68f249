"""The EF1 plugin of examples/remote-valid/plugin.json: a device's CPU usage, per core, and its status.

It measures the machine it runs on (its load average), so that `plugin-review migrate` makes a project of it that
runs anywhere: docs/migrate.md shows it run with Dynatrace's EF2 SDK.
"""
import os

from ruxit.api.base_plugin import RemoteBasePlugin
from ruxit.api.exceptions import ConfigException


class DemoDevicePlugin(RemoteBasePlugin):
    def initialize(self, **kwargs):
        if self.config.get("mode") not in ("fast", "thorough"):
            raise ConfigException(f"mode must be fast or thorough, not {self.config.get('mode')!r}")

    def query(self, **kwargs):
        host = self.config.get("host") or "localhost"
        group = self.topology_builder.create_group("demo-devices", "Demo devices")
        device = group.create_device(host, f"Demo device {host}")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        cores = os.cpu_count() or 1
        usage = min(100.0, 100.0 * load / cores)
        for core in range(cores if self.config["mode"] == "thorough" else 1):
            device.absolute("cpu", usage, {"core": str(core)})
        device.state_metric("status", "OK" if usage < 90 else "DEGRADED")
