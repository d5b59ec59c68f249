"""plugin-review's EF1 compatibility layer: an Extension Framework 1.0 Python plugin, unchanged, on Extensions 2.0.

`plugin-review migrate` writes this folder into the project of a migrated Python plugin; README.md beside this file
says what it does, what differs from EF1, and how to move off it. In short, `python -m <module>` runs
<module>/__main__.py, which calls run() here:

1. `ruxit` (this folder) and the plugin's own folder (<module>/plugin) go on sys.path, so that the plugin's
   imports work as they did on the EF1 engine;
2. <module>/metric-keys.json (the key map `migrate` wrote, the same as the project's) says the EF2 key and
   dimensions of every EF1 metric;
3. an EF2 Extension (Dynatrace's dt-extensions-sdk) makes one object of the plugin's class per endpoint of the
   monitoring configuration (a host plugin's: per process group instance of OneAgent's snapshot its activation
   matches, its associated_entity), with `self.config` the endpoint's settings, and calls initialize() once,
   query() every minute and close() at the end;
4. what the plugin reported in a run is sent with the SDK's report_metric and report_dt_event: absolute as a
   gauge, relative as a count of the increase since the previous run, per_second as a gauge of that increase per
   second, state_metric as a gauge of 1 with the dimension `state`; a remote plugin's group and device become the
   dimensions group, group.name, device, device.name (and device.address, its first endpoint);
   ConfigException and AuthException become the extension's status.

A local run may set EF1COMPAT_QUERY_INTERVAL (seconds, at least 1) to run query() that often instead of every
minute, to see counters and rates without waiting; it is ignored where the EEC runs the extension.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import os
import re
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULE_DIR = HERE.parent
PLUGIN_DIR = MODULE_DIR / "plugin"
KEY_MAP_FILE = "metric-keys.json"
DESCRIPTOR_FILE = "ef1-plugin.json"
INTERVAL_VARIABLE = "EF1COMPAT_QUERY_INTERVAL"

# The dimensions a remote plugin's topology becomes (extension.yaml's metric metadata names them too).
GROUP, GROUP_NAME, DEVICE, DEVICE_NAME, DEVICE_ADDRESS = "group", "group.name", "device", "device.name", "device.address"
PROCESS = "dt.entity.process_group_instance"
STATE = "state"
# MINT: a dimension value is at most 250 characters.
DIMENSION_VALUE_MAX = 250
# What the plugin's code may raise that fails its call, not the extension: sys.exit() too (scripts call it on an
# error), which would leave the SDK's query callback marked as running, and the plugin never queried again.
PLUGIN_ERRORS = (Exception, SystemExit)
# A counter's previous value is forgotten when it was not reported for an hour (EF1 forgot it on restart).
PREVIOUS_TTL = 3600
# How long the extension's shutdown waits for a query in progress before it calls the plugin's close(): EF1 closed
# a plugin after its query, not in the middle of it (a session closed under a running query fails it).
CLOSE_WAIT = 10

for _path in (PLUGIN_DIR, HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from dynatrace_extension import (  # noqa: E402 (after sys.path)
    DtEventType,
    Extension,
    IgnoreStatus,
    MetricType,
    MultiStatus,
    Status,
    StatusValue,
    SummaryStat,
)
from ruxit.api.exceptions import (  # noqa: E402
    AuthException,
    ConfigException,
    NothingToReportException,
)
from ruxit.api.base_plugin import ActivationContext  # noqa: E402
from ruxit.api.results import ON_HOST, ListenPort, ef2_entity_id, entity_id_of, entity_number  # noqa: E402
from ruxit.api.snapshot import as_ef1  # noqa: E402

log = logging.getLogger("ef1compat")


def dimension_key(name):
    """An EF1 dimension name as an EF2 dimension key, by plugin-review's rule (ConnectionPool -> connection_pool)."""
    if name == "rx_pid":
        return PROCESS
    out = []
    for c in str(name):
        out.append("_" + c.lower() if c.isupper() else c)
    key = "".join(out)
    key = key[1:] if key.startswith("_") else key
    return "".join(c for c in key if c.isascii() and (c.isalnum() or c in "-._:"))


def has_value(value):
    """Whether a dimension value is one: EF1 plugins pass None or "" for a dimension they have no value for (an
    optional field of an API's answer), and the agent sent the measurement as it was. MINT has no value for
    that: the dimension is left out of the line, and the data point keeps its place (Dynatrace shows the
    dimension as null when split by it), rather than being split off under a made-up value "None"."""
    return value is not None and str(value) != ""


def dimension_value(value):
    """A dimension value as MINT takes it: text, at most 250 characters, quotes and backslashes escaped."""
    text = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in str(value))[:DIMENSION_VALUE_MAX]
    return text.replace("\\", "\\\\").replace('"', '\\"')


# The title of an event whose plugin gave neither title nor description: its type's name as Dynatrace shows it.
EVENT_TITLES = {
    "ERROR_EVENT": "Error",
    "PERFORMANCE_EVENT": "Performance event",
    "AVAILABILITY_EVENT": "Availability event",
    "RESOURCE_CONTENTION_EVENT": "Resource contention",
    "CUSTOM_INFO": "Custom info",
    "CUSTOM_DEPLOYMENT": "Custom deployment",
    "CUSTOM_ANNOTATION": "Custom annotation",
}


def _text(value):
    """An event's title or description as text, stripped; '' when there is none (None, empty, blank)."""
    return "" if value is None else str(value).strip()


class Ef2Metric:
    """One EF1 metric of metric-keys.json: its EF2 key and type, and each EF1 dimension's EF2 key."""

    def __init__(self, ef1, ef2, pairs=None, remote=False):
        self.key = ef2["key"]
        self.type = ef2.get("type")
        state = ef1.get("kind") == "statetimeseries"
        if isinstance(pairs, list) and all(isinstance(p, dict) for p in pairs):
            # The key map's own pairing of each declared dimension with its EF2 key.
            self.dimensions = {
                p["ef1"]: p["ef2"] for p in pairs if isinstance(p.get("ef1"), str) and isinstance(p.get("ef2"), str)
            }
        else:
            names = [d for d in ef1.get("dimensions") or [] if isinstance(d, str)]
            keys = [d for d in ef2.get("dimensions") or [] if isinstance(d, str)]
            if state and keys and keys[-1] == STATE:
                keys = keys[:-1]
            # The key map lists the EF2 dimensions in the order of the EF1 ones; where it does not (two EF1
            # dimensions made one), each is named by the rule.
            self.dimensions = dict(zip(names, keys)) if len(names) == len(keys) else {}
        # The keys a dimension plugin.json does not declare must not take: the declared ones', the state's of a
        # state metric and a remote plugin's group and device (the key map keeps declared ones apart the same way).
        self._taken = set(self.dimensions.values())
        if state:
            self._taken.add(STATE)
        if remote:
            self._taken.update((GROUP, GROUP_NAME, DEVICE, DEVICE_NAME, DEVICE_ADDRESS))
        self._undeclared = {}

    def dimension(self, name):
        """The EF2 key of the plugin's dimension `name`: the key map's for a declared one; for another, the rule's,
        or `<key>_2` (`_3`, …) where that key is taken, the same for the name from run to run."""
        key = self.dimensions.get(name) or self._undeclared.get(name)
        if key is None:
            base = key = dimension_key(name)
            n = 2
            while key in self._taken:
                key = f"{base}_{n}"
                n += 1
            self._taken.add(key)
            self._undeclared[name] = key
        return key

    def declares(self, name):
        return name in self.dimensions

    @property
    def counts(self):
        return self.type == "count" or self.key.endswith((".count", "_count"))


class KeyMap:
    """metric-keys.json: the EF2 metric of each EF1 metric (by key, and kind: timeseries or statetimeseries)."""

    def __init__(self, doc, remote=False):
        self._metrics = {}
        for m in doc.get("metrics") or []:
            ef1, ef2 = m.get("ef1") or {}, m.get("ef2") or {}
            if isinstance(ef1.get("key"), str) and isinstance(ef2.get("key"), str):
                metric = Ef2Metric(ef1, ef2, m.get("dimensions"), remote)
                self._metrics.setdefault((ef1["key"], ef1.get("kind", "timeseries")), metric)

    @staticmethod
    def load(path, remote=False):
        try:
            return KeyMap(json.loads(path.read_text(encoding="utf-8")), remote)
        except (OSError, ValueError) as e:
            raise RuntimeError(f"cannot read the key map {path}: {e}; it names the EF2 key of every EF1 metric") from e

    def find(self, key, state):
        kinds = ("statetimeseries", "timeseries") if state else ("timeseries", "statetimeseries")
        for kind in kinds:
            found = self._metrics.get((key, kind))
            if found:
                return found
        return None


def number(value):
    """A measurement's value as a number, or None (EF1 took numbers, and numbers as text)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        result = value
    else:
        try:
            result = float(str(value).strip())
        except ValueError:
            return None
    return result if math.isfinite(result) else None


class Sender:
    """Sends one plugin object's reports through the EF2 SDK, keeping what relative and per_second need."""

    def __init__(self, extension, key_map, warn, states=None):
        self._extension = extension
        self._key_map = key_map
        self._warn = warn
        # The states plugin.json declares of each statetimeseries metric (declared_states).
        self._states = states or {}
        self._previous = {}
        # The process group instance of each process id and of each port a process listens on, of OneAgent's
        # snapshot, read once per run that needs it.
        self._processes = None
        self._ports = None
        # The host's EF2 entity id (HOST-<hex>) of OneAgent's snapshot, where a host plugin's events on the host go.
        self._host = None

    def send(self, reports, now):
        """Sends the reports of one run; returns (metric lines, events) sent."""
        metrics = events = 0
        self._processes = self._ports = self._host = None
        for report in reports:
            try:
                if isinstance(report.pgi, ListenPort) and report.kind != "property" and not self._listening(report):
                    continue
                if report.kind == "event":
                    self._event(report)
                    events += 1
                elif report.kind == "property":
                    self._warn(
                        ("property", report.key),
                        f"report_property({report.key!r}) is not sent: EF2 code reports no entity properties "
                        "(MIGRATION.md says what to do instead)",
                    )
                else:
                    metrics += self._metric(report, now)
            except Exception as e:  # one bad measurement must not lose the others
                what = f"an EF1 {report.event['type']} event" if report.kind == "event" else f"metric {report.key!r}"
                self._warn(("error", report.key, type(e)), f"{what} not sent: {e}")
        self._previous = {k: v for k, v in self._previous.items() if now - v[1] <= PREVIOUS_TTL}
        return metrics, events

    @staticmethod
    def _topology(report):
        """The dimensions the report's process group instance, group and device add, their values as the plugin
        gave them: a metric line escapes them (dimension_value), an event's properties carry them as they are."""
        topology = {}
        if report.pgi is not None and report.pgi is not ON_HOST:
            topology[PROCESS] = report.pgi
        if report.group is not None:
            topology[GROUP] = report.group.identifier
            topology[GROUP_NAME] = report.group.name
        if report.device is not None:
            topology[DEVICE] = report.device.identifier
            topology[DEVICE_NAME] = report.device.name
            if report.device.address is not None:
                topology[DEVICE_ADDRESS] = report.device.address
        return topology

    def _read_snapshot(self):
        """The process group instance (EF2 entity id) of each process id and of each port a process listens on, of
        OneAgent's snapshot (none where there is no snapshot: a remote plugin's)."""
        if self._processes is None:
            self._processes, self._ports = {}, {}
            try:
                snapshot = self._extension.snapshot()
                entries = snapshot.entries
                self._host = ef2_entity_id(getattr(snapshot, "host_id", None))
            except Exception:
                entries = []
            for entry in entries:
                for process in getattr(entry, "processes", None) or []:
                    pgi = ef2_entity_id(entry.group_instance_id) or entry.group_instance_id
                    self._processes.setdefault(str(getattr(process, "pid", "")), pgi)
                    properties = getattr(process, "properties", None)
                    ports = list(getattr(properties, "listening_ports", None) or [])
                    ports += [b.port for b in getattr(properties, "port_bindings", None) or []]
                    for port in ports:
                        self._ports.setdefault(str(port), pgi)

    def _process_group_instance(self, pid):
        """The process group instance (EF2 entity id) of OneAgent's snapshot whose processes hold `pid`, or None
        (a process that is gone, a remote plugin's: no snapshot)."""
        self._read_snapshot()
        return self._processes.get(str(pid).strip())

    def _on_host(self, report):
        """The host's EF2 entity id, where a host plugin's event sent with HostSelector() (or entity_id= of the host's
        id) goes; None for a remote plugin's (an ActiveGate's host is not what it monitors, and it has no snapshot),
        and where OneAgent's snapshot cannot be read (the event is the environment's then, said once)."""
        if (getattr(self._extension, "spec", None) or {}).get("remote", True):
            return None
        self._read_snapshot()
        if self._host is None:
            self._warn(
                ("host", report.event["type"]),
                f"an EF1 {report.event['type']} event on the host is sent without its entity: OneAgent's snapshot "
                "gives no host id (the next ones are not logged)",
            )
        return self._host

    def _listening(self, report):
        """Sets the process group instance a ListenPortSelector names (the one of OneAgent's snapshot whose process
        listens on its port) as the report's; False, and a warning once, when no process listens on it."""
        self._read_snapshot()
        port = report.pgi.port
        pgi = self._ports.get(str(port).strip())
        if pgi is None:
            what = f"an EF1 {report.event['type']} event" if report.kind == "event" else f"metric {report.key!r}"
            self._warn(
                ("port", report.key, report.kind == "event"),
                f"{what} of ListenPortSelector(port_number={str(port)[:DIMENSION_VALUE_MAX]}) is not sent: no "
                "process of OneAgent's snapshot listens on that port (the next ones are not logged)",
            )
            return False
        report.pgi = pgi
        return True

    def _metric(self, report, now):
        metric = self._key_map.find(report.key, report.kind == "state")
        if metric is None:
            self._warn(
                ("unknown", report.key),
                f"metric {report.key!r} is not sent: plugin.json declares no such metric (the EF1 agent dropped it "
                "too), so metric-keys.json has no EF2 key for it",
            )
            return 0
        dimensions = {}
        for name, value in ((str(k), v) for k, v in (report.dimensions or {}).items()):
            if not has_value(value):
                self._warn(
                    ("no value", report.key, name),
                    f"metric {report.key!r} is sent without its dimension {name!r} where the plugin gives it None or "
                    "an empty value: MINT has no value for it, and Dynatrace shows it as null when split by it (said "
                    "once)",
                )
                continue
            if name == "rx_pid":
                # EF1's rx_pid is a process id; EF2's dimension is the process group instance that runs it.
                pgi = ef2_entity_id(value) or self._process_group_instance(value)
                if pgi is None:
                    self._warn(
                        ("rx_pid", report.key),
                        f"metric {report.key!r} of process {str(value)[:DIMENSION_VALUE_MAX]!r} (rx_pid) is not sent: "
                        "no process group instance of OneAgent's snapshot runs that process (the next ones are not "
                        "logged)",
                    )
                    return 0
                value = pgi
            key = metric.dimension(name)
            if key != dimension_key(name) and not metric.declares(name):
                self._warn(
                    ("renamed", report.key, name),
                    f"metric {report.key!r} is sent with its dimension {name!r} as {key}: plugin.json does not "
                    f"declare it, and {dimension_key(name)} is another dimension's (a declared one's, the state's, the "
                    "group's or the device's) (said once)",
                )
            dimensions[key] = dimension_value(value)
        for key, value in self._topology(report).items():
            if has_value(value):
                dimensions.setdefault(key, dimension_value(value))
        if report.kind == "state":
            declared = self._states.get(report.key)
            if declared is not None and str(report.value) not in declared:
                self._warn(
                    ("state", report.key),
                    f"state_metric({report.key!r}, {str(report.value)[:DIMENSION_VALUE_MAX]!r}) is not sent: "
                    f"plugin.json declares its states as {', '.join(declared)}, the only ones EF1 knew for it (the "
                    "next states it does not declare are not sent either)",
                )
                return 0
            dimensions[STATE] = dimension_value(report.value)
            self._extension.report_metric(metric.key, 1, dimensions)
            return 1
        if report.kind == "absolute" and all(hasattr(report.value, a) for a in ("min", "max", "sum", "count")):
            v = report.value
            self._extension.report_metric(metric.key, SummaryStat(v.min, v.max, v.sum, v.count), dimensions)
            return 1
        value = number(report.value)
        if value is None:
            self._warn(("value", report.key), f"metric {report.key!r} not sent: {report.value!r} is not a number")
            return 0
        if report.kind == "absolute":
            if metric.type == "count":
                self._warn(
                    ("type", report.key),
                    f"absolute({report.key!r}) is sent as a gauge under {metric.key}, which metric-keys.json "
                    "makes a count",
                )
            self._extension.report_metric(metric.key, value, dimensions)
            return 1
        # EF1 kept a counter's previous value by entity, key and dimensions: a device's or group's name and address
        # are not its identity, and a device that fails over to another address keeps counting.
        series = (
            report.kind,
            metric.key,
            tuple(sorted((k, v) for k, v in dimensions.items() if k not in (GROUP_NAME, DEVICE_NAME, DEVICE_ADDRESS))),
        )
        previous = self._previous.get(series)
        self._previous[series] = (value, now)
        if previous is None or value < previous[0]:
            return 0  # the first value of a counter, or a reset: EF1 sent nothing either
        delta = value - previous[0]
        if report.kind == "relative":
            if not metric.counts:
                self._warn(
                    ("type", report.key),
                    f"relative({report.key!r}) is a counter, but metric-keys.json maps it to {metric.key}, which is "
                    "not a count key (.count): Dynatrace Classic stores it as "
                    f"{metric.key}.count",
                )
            self._extension.report_metric(metric.key, delta, dimensions, metric_type=MetricType.DELTA)
            return 1
        elapsed = now - previous[1]
        if elapsed <= 0:
            return 0
        self._extension.report_metric(metric.key, delta / elapsed, dimensions)
        return 1

    def _event(self, report):
        event = report.event
        properties = {str(k): str(v) for k, v in (event["properties"] or {}).items() if v is not None}
        if _text(event["description"]):
            properties.setdefault("dt.event.description", str(event["description"]))
        for key, value in self._topology(report).items():
            if has_value(value):
                properties.setdefault(key, str(value))
        # EF1 plugins may leave the title out (or empty); the Events API v2 refuses an event without one, and the
        # EEC drops it without a word: the description stands in, or the event type's name.
        title = str(event["title"]) if _text(event["title"]) else ""
        if not title:
            title = _text(event["description"]) or EVENT_TITLES.get(event["type"], event["type"])
            self._warn(
                ("title", event["type"]),
                f"an EF1 event ({event['type']}) without a title is sent titled {title!r}: the Events API requires a "
                "title (the next ones without a title are titled the same way, by their description or type)",
            )
        # EF1 raised an event sent with entity_id= on that process group instance, one sent with HostSelector() on
        # the host: so does its entity selector (an event without one is the environment's).
        on = self._on_host(report) if report.pgi is ON_HOST else ef2_entity_id(report.pgi)
        self._extension.report_dt_event(
            DtEventType(event["type"]),
            title,
            entity_selector=f'entityId("{on}")' if on else None,
            properties=properties or None,
        )


def declared_states(descriptor):
    """The states plugin.json declares of each statetimeseries metric, by key: the only values the EF1 agent took
    for it (a metric declaring none is not checked)."""
    states = {}
    for metric in descriptor.get("metrics") or []:
        series = metric.get("statetimeseries") if isinstance(metric, dict) else None
        if isinstance(series, dict) and isinstance(series.get("key"), str) and isinstance(series.get("states"), list):
            listed = [str(state) for state in series["states"] if state is not None]
            if listed:
                states.setdefault(series["key"], listed)
    return states


def _declared_default(prop):
    """A property's plugin.json default as EF1 gave it (its type's value), or None (none, a password's, or one
    that is not of its type)."""
    kind = str(prop.get("type", "")).lower()
    value = prop.get("defaultValue")
    if value is None or kind == "password":
        return None
    try:
        if kind == "integer":
            return value if isinstance(value, int) and not isinstance(value, bool) else int(str(value).strip())
        if kind == "float":
            result = float(value) if not isinstance(value, bool) else None
            return result if result is not None and math.isfinite(result) else None
        if kind == "boolean":
            return value if isinstance(value, bool) else {"true": True, "false": False}.get(str(value).lower())
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, str) else str(value)


def ef1_config(descriptor, endpoint):
    """`self.config` as EF1 gave it: every property plugin.json declares, keys as declared, then the endpoint's
    settings. A configuration made before the extension's version declared a property (or one that leaves a
    nullable property out) has its plugin.json default, or None, not a KeyError in the plugin's code."""
    config = {}
    for prop in descriptor.get("properties") or []:
        if isinstance(prop, dict) and isinstance(prop.get("key"), str):
            config[prop["key"]] = _declared_default(prop)
    config.update(endpoint)
    return config


def status_of(error):
    """The EF2 status of an exception an EF1 plugin raised."""
    if isinstance(error, ConfigException):
        return Status(StatusValue.INVALID_CONFIG_ERROR, f"ConfigException: {error}")
    if isinstance(error, AuthException):
        return Status(StatusValue.AUTHENTICATION_ERROR, f"AuthException: {error}")
    return Status(StatusValue.GENERIC_ERROR, f"{type(error).__name__}: {error}")


class Activation:
    """Where the EF1 agent ran a host plugin (plugin.json's processTypeNames/processTypes, technologies,
    source.activation_name_pattern and source.activation): the process groups of OneAgent's snapshot it matches.
    Each criterion plugin.json sets must hold; one it does not set holds for every process group."""

    def __init__(self, spec):
        spec = spec or {}
        types = spec.get("process_types")
        self.process_types = None if types is None else {int(t) for t in types}
        technologies = spec.get("technologies")
        self.technologies = None if technologies is None else {str(t).upper() for t in technologies}
        self.pattern_text = spec.get("name_pattern")
        self.pattern = None
        self.pattern_error = None
        if self.pattern_text is not None:
            try:
                self.pattern = re.compile(self.pattern_text)
            except re.error as e:
                self.pattern_error = str(e)  # the agent never activated the plugin either
        self.singleton = bool(spec.get("singleton"))

    def matches(self, entry):
        if self.pattern_error is not None:
            return False
        if self.process_types is not None and getattr(entry, "process_type", None) not in self.process_types:
            return False
        if self.technologies is not None:
            properties = getattr(entry, "properties", None)
            own = {str(t).upper() for t in (getattr(properties, "technologies", None) or []) if t}
            if not own & self.technologies:
                return False
        if self.pattern is not None and not self.pattern.search(str(getattr(entry, "group_name", ""))):
            return False
        return True

    def describe(self):
        parts = []
        if self.process_types is not None:
            parts.append(f"process types {sorted(self.process_types)}")
        if self.technologies is not None:
            parts.append(f"technologies {sorted(self.technologies)}")
        if self.pattern_text is not None:
            error = f" (it does not compile: {self.pattern_error})" if self.pattern_error else ""
            parts.append(f"a name matching {self.pattern_text!r}{error}")
        return ", ".join(parts) or "any process group"


class _LazySnapshot:
    """`process_snapshot` of a host plugin's kwargs: OneAgent's snapshot, read when first used."""

    def __init__(self, load):
        self._load = load
        self._value = None

    def __getattr__(self, name):
        if self._value is None:
            self._value = self._load()
        return getattr(self._value, name)


class Instance:
    """One object of the EF1 plugin's class: one endpoint of the monitoring configuration."""

    def __init__(self, runner, index, config, label, entity=None):
        self.runner = runner
        self.index = index
        self.config = config
        self.label = label
        # A host plugin's process group instance (a snapshot entry), as EF1 activated it: associated_entity.
        self.entity = entity
        self.plugin = None
        self.status = Status(StatusValue.OK)
        self.runs = 0
        self.sender = Sender(runner, runner.key_map, runner.warn, runner.states)
        # The monotonic time of the latest query: per_second divides by the seconds since the one before.
        self.last_query = None
        # Held by a query and its sending, and by close(): the extension's shutdown (the SDK calls it on its main
        # thread, whatever query runs) closes the plugin after its query, and no query starts after close().
        self.lock = threading.Lock()
        self.closed = False
        # close() waits for the query in progress: a second shutdown signal stops the wait.
        self.waiting = False

    def kwargs(self):
        spec = self.runner.spec
        kwargs = {"config": self.plugin.config, "json_config": self.runner.json_config, "associated_entity": self.entity}
        if not spec["remote"]:
            kwargs["process_snapshot"] = _LazySnapshot(self.runner.snapshot)
            # EF1's engine set the query's snapshot on the plugin too: plugins read self.query_snapshot.host_id.
            self.plugin.query_snapshot = kwargs["process_snapshot"]
        return kwargs

    def start(self):
        """Makes the plugin object and calls initialize(); the status says how it went."""
        spec = self.runner.spec
        try:
            self.plugin = self.runner.plugin_class(
                config=ef1_config(self.runner.json_config, self.config),
                json_config=self.runner.json_config,
                logger=logging.getLogger(spec["package"]),
                snapshot=None if spec["remote"] else self.runner.snapshot,
            )
            if spec["remote"] and not hasattr(self.plugin, "activation"):  # unless the plugin's own
                self.plugin.activation = self.runner.activation_of(self.index[0])
                recorder = getattr(self.plugin, "_recorder", None)
                if recorder is not None:
                    # entity_id=self.activation.entity_id names the plugin's own entity, not a process group
                    # instance of that number.
                    recorder.own_id = entity_number(self.plugin.activation.entity_id)
            self.associate(self.entity)
            self.plugin.initialize(**self.kwargs())
            self.status = Status(StatusValue.OK)
        except NothingToReportException:
            self.status = Status(StatusValue.OK)
            if self.plugin is not None:
                self.plugin._recorder.take()  # nothing for this run
        except PLUGIN_ERRORS as e:
            self.fail("initialize", e)
            self.plugin = None
        self.flush(time.monotonic())
        return self.plugin is not None

    def associate(self, entity):
        """The process group instance the plugin runs for: its associated_entity, and where its results_builder
        reports (EF1: the plugin's own entity), unless a call names another."""
        self.entity = entity
        if self.plugin is None:
            return
        self.plugin.associated_entity = entity
        builder = getattr(self.plugin, "results_builder", None)
        if builder is not None:
            pgi = getattr(entity, "group_instance_id", None)
            builder._pgi = ef2_entity_id(pgi) or pgi

    def fail(self, what, error):
        status = status_of(error)
        if isinstance(error, (ConfigException, AuthException)):
            log.error("EF1 %s of %s: %s: %s", what, self.label, status.status.value, error)
        else:
            log.exception("EF1 %s of %s failed: %s", what, self.label, status.message)
        self.status = status

    def query(self):
        """One run: initialize() again when it failed, then query(), then what it reported sent."""
        with self.lock:
            if self.closed:
                return self.status
            return self._query()

    def _query(self):
        if self.plugin is None and not self.start():
            return self.status
        self.runs += 1
        now = time.monotonic()
        since = "" if self.last_query is None else f"; {now - self.last_query:.6f} s after query {self.runs - 1}"
        self.last_query = now
        builder = getattr(self.plugin, "topology_builder", None)
        if builder is not None and hasattr(builder, "_reset"):
            builder._reset()
        recorder = getattr(self.plugin, "_recorder", None)
        if recorder is not None and hasattr(recorder, "new_run"):
            recorder.new_run()
        try:
            self.plugin.query(**self.kwargs())
            self.status = Status(StatusValue.OK)
        except NothingToReportException:
            self.status = Status(StatusValue.OK, "nothing to report")
            self.plugin._recorder.take()  # nothing for this run, not even what it reported before raising
        except PLUGIN_ERRORS as e:
            self.plugin._recorder.take()  # a failed run reports nothing, as on EF1
            if self.closed:
                # close() was called under it at the shutdown (a session it used closed): an end foreseen, not
                # the plugin's error; the extension stops, and nothing more is sent.
                log.warning("EF1 query %d of %s ended after close(): %s: %s", self.runs, self.label, type(e).__name__, e)
                return self.status
            self.fail("query", e)
        metrics, events = self.flush(now)
        log.info("EF1 query %d of %s: %d metrics, %d events sent%s", self.runs, self.label, metrics, events, since)
        return self.status

    def flush(self, now):
        if self.plugin is None:
            return 0, 0
        return self.sender.send(self.plugin._recorder.take(), now)

    def close(self, wait=CLOSE_WAIT):
        """close() once, after the query in progress (if any) has run and sent what it reported, as EF1 did; a
        query still running after `wait` seconds does not hold the shutdown, and sends nothing more. Called again
        while the first call waits (a second shutdown signal: the SDK runs its handler again, nested in the first
        one, and exits when it returns), it stops the wait: close() is called now, not skipped."""
        if self.closed:
            if not self.waiting:
                return  # close() runs or has run
            wait = 0  # the outer call, if it ever resumes, finds close() done by this one
        self.closed = True
        self.waiting = True
        waited = self.lock.acquire(timeout=max(0.0, wait))
        try:
            if not self.waiting:
                return  # a nested call (a second shutdown signal) closed the plugin while this one waited
            self.waiting = False
            if self.plugin is None:
                return
            if not waited:
                log.warning(
                    "EF1 query of %s still runs at the extension's shutdown (%s): close() is called now, and what "
                    "the query reports is not sent",
                    self.label,
                    f"after {CLOSE_WAIT} s" if wait > 0 else "stopped again",
                )
                self.plugin._recorder.take()
            stops = self.runner.stops
            try:
                self.plugin.close(**self.kwargs())
            except SystemExit:
                if self.runner.stops == stops:
                    log.exception("EF1 close of %s failed", self.label)
                else:
                    # The SDK's handler of another shutdown signal exits from within close(): the user's stop, not
                    # the plugin's error; the handler has called close() of the others and sent what was reported.
                    log.warning("EF1 close of %s stopped: the extension was stopped again while it ran", self.label)
                    raise
            except PLUGIN_ERRORS:
                log.exception("EF1 close of %s failed", self.label)
            self.flush(time.monotonic())
        finally:
            if waited:
                self.lock.release()


def load_plugin_class(package, class_name):
    """The EF1 plugin's class, from <module>/plugin; a clear error when it is not there."""
    parts = package.split(".")
    present = (PLUGIN_DIR.joinpath(*parts[:-1]) / (parts[-1] + ".py")).is_file() or (
        PLUGIN_DIR.joinpath(*parts) / "__init__.py"
    ).is_file()
    if not present:
        raise RuntimeError(
            f"the EF1 plugin's code is not in {PLUGIN_DIR}: plugin.json's source.package is {package!r}, but "
            f"neither {package}.py nor {package}/__init__.py is there. Copy the plugin's files (those beside its "
            "plugin.json) into that folder, or run plugin-review migrate where they are."
        )
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith(package):
            raise RuntimeError(
                f"the EF1 plugin imports {e.name!r}, which is not installed: setup.py's install_requires lists "
                "the plugin's dependencies (pip install . installs them; Dynatrace's build packs them)"
            ) from e
        raise
    plugin_class = getattr(module, class_name, None)
    if not isinstance(plugin_class, type):
        raise RuntimeError(f"{package} has no class {class_name!r} (plugin.json's source.className)")
    return plugin_class


def _local_run():
    """A run of a developer's (python -m, dt-sdk run), not the EEC's, which passes --dsid."""
    return not any(a == "--dsid" or a.startswith("--dsid=") for a in sys.argv[1:])


def _log_to_extension_log():
    """The plugin's own loggers (logging.getLogger(__name__)) write where the SDK's do: INFO on stdout, errors
    on stderr. The SDK's loggers keep their own handlers and stop propagating, so that no line is written twice."""
    root = logging.getLogger()
    if root.handlers:
        return
    formatter = logging.Formatter("%(asctime)s [%(levelname)s] %(name)s (%(threadName)s): %(message)s")
    out = logging.StreamHandler(sys.stdout)
    out.addFilter(lambda r: r.levelno < logging.ERROR)
    err = logging.StreamHandler(sys.stderr)
    err.addFilter(lambda r: r.levelno >= logging.ERROR)
    for handler in (out, err):
        handler.setFormatter(formatter)
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    for logger in list(logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger) and logger.handlers:
            logger.propagate = False


class EF1Plugin(Extension):
    """The EF2 extension that runs the EF1 plugin named by `spec` (set by run() before it is made)."""

    spec = None

    def initialize(self):
        try:
            return self._initialize()
        except Exception:
            EF1Plugin.aborted = True  # the SDK logs it, sends the status and stops
            raise

    def _initialize(self):
        spec = self.spec
        self.warned = set()
        self.key_map = KeyMap.load(MODULE_DIR / KEY_MAP_FILE, spec["remote"])
        self.json_config = self._descriptor()
        self.states = declared_states(self.json_config)
        self.plugin_class = load_plugin_class(spec["package"], spec["class_name"])
        if _local_run():
            self._compare_key_maps()
        self.endpoints = [e for e in (self.activation_config.get("endpoints") or []) if isinstance(e, dict)]
        if not self.endpoints:
            log.warning("the monitoring configuration has no endpoint: the EF1 plugin does not run")
        self.activation = None if spec["remote"] else Activation(spec.get("activation"))
        self.instances = []
        self.statuses = {}
        started = self._activate()
        if self.instances and not any(started):
            # No endpoint can run: the status goes to Dynatrace at once and the extension stops (EF2's way with a
            # configuration it cannot use); a new configuration starts it again.
            failed = [i.status for i in self.instances]
            if all(s.status in (StatusValue.INVALID_CONFIG_ERROR, StatusValue.AUTHENTICATION_ERROR) for s in failed):
                EF1Plugin.aborted = True
                return failed[0] if len(failed) == 1 else self._combined(failed)
        self.own_schedule = False
        interval = os.environ.get(INTERVAL_VARIABLE)
        if interval and _local_run():
            try:
                seconds = max(1.0, float(interval))
            except ValueError:
                raise RuntimeError(f"{INTERVAL_VARIABLE}={interval!r} is not a number of seconds") from None
            self.own_schedule = True
            self.schedule(self.ef1_query, timedelta(seconds=seconds))
        return None

    def query(self):
        """Every minute: each endpoint's EF1 query() (unless a local run chose another interval)."""
        if self.own_schedule:
            return IgnoreStatus()
        return self.ef1_query()

    def _activate(self):
        """The plugin objects: one per endpoint, and for a host plugin one per process group instance of the
        snapshot its activation matches (one for all with Singleton), made and closed as they come and go, as the
        EF1 agent did. Returns whether each new object started."""
        entities = [None]
        if self.activation is not None:
            entities = self._activated()
            if entities is None:
                return []  # the snapshot could not be read this time: the objects stay as they are
        wanted = {}
        for i, endpoint in enumerate(self.endpoints):
            for entity in entities:
                pgi = getattr(entity, "group_instance_id", None)
                wanted[(i, None if self.activation is None or self.activation.singleton else pgi)] = (endpoint, entity)
        kept = []
        for instance in self.instances:
            if instance.index in wanted:
                instance.associate(wanted.pop(instance.index)[1])
                kept.append(instance)
            else:
                log.info("EF1 plugin %s: its process group instance is gone, close() called", instance.label)
                instance.close()
                self.statuses.pop(instance.index, None)
        many = len(self.endpoints) > 1
        name = self.spec["class_name"]
        started = []
        for (i, pgi), (endpoint, entity) in wanted.items():
            label = f"{name} (endpoint {i + 1})" if many else name
            if entity is not None and (pgi is not None or self.activation.singleton):
                label += f" on {getattr(entity, 'group_name', '?')} ({getattr(entity, 'group_instance_id', '?')})"
            instance = Instance(self, (i, pgi), endpoint, label, entity)
            kept.append(instance)
            started.append(instance.start())
        self.instances = kept
        return started

    def _activated(self):
        """The snapshot entries the activation matches (Singleton: the first), or [None] where there is no snapshot
        (a local run without snapshot.json): the plugin then runs once, without associated_entity."""
        try:
            entries = list(self.snapshot().entries)
        except Exception as e:
            if getattr(self, "snapshot_read", False):
                # Read before (OneAgent rewrites it): the plugin keeps running for the instances it had.
                self.warn(("snapshot", "again"), f"{e}: the EF1 plugin keeps its process group instances")
                return None
            self.warn(("snapshot",), f"{e}: the EF1 plugin runs once per endpoint, its associated_entity None")
            return [None]
        self.snapshot_read = True
        matched = [entry for entry in entries if self.activation.matches(entry)]
        if not matched:
            self.warn(
                ("activation",),
                "no process group of OneAgent's snapshot matches plugin.json's activation "
                f"({self.activation.describe()}): the EF1 plugin does not run until one does, as on EF1",
            )
            return []
        self.warned.discard(("activation",))  # said again when none matches again
        return matched[:1] if self.activation.singleton else matched

    def ef1_query(self):
        if self.activation is not None:
            self._activate()
        if not self.instances:
            return Status(StatusValue.OK, "no process group to monitor" if self.endpoints else "")
        statuses = [instance.query() for instance in self.instances]
        for instance, status in zip(self.instances, statuses):
            before = self.statuses.get(instance.index)
            now = (status.status, status.message)
            if now != before and (status.is_error() or before is not None):
                log.log(
                    logging.ERROR if status.is_error() else logging.INFO,
                    "EF1 status of %s: %s%s",
                    instance.label,
                    status.status.value,
                    f": {status.message}" if status.message else "",
                )
            self.statuses[instance.index] = now
        if len(statuses) == 1:
            return statuses[0]
        return self._combined(statuses)

    @staticmethod
    def _combined(statuses):
        multi = MultiStatus()
        for status in statuses:
            multi.add_status(status.status, status.message)
        return multi.build()

    def fastcheck(self):
        """Before an ActiveGate runs the extension: the plugin's code is there and imports."""
        try:
            load_plugin_class(self.spec["package"], self.spec["class_name"])
        except Exception as e:
            return Status(StatusValue.GENERIC_ERROR, str(e))
        return Status(StatusValue.OK)

    def on_shutdown(self):
        """The EEC stops the extension (the SDK calls this on its main thread, while a query may run): each plugin
        object is closed after its query in progress, all of them within CLOSE_WAIT seconds. A second signal while
        the first one waits (the SDK calls this again, nested, then exits) closes every plugin object at once; one
        while a plugin's close() runs exits from within it, as the SDK does, without calling that an error."""
        again = getattr(self, "shutting_down", False)
        self.shutting_down = True
        self.stops += 1
        deadline = time.monotonic() + CLOSE_WAIT
        for instance in list(getattr(self, "instances", [])):
            instance.close(0 if again else deadline - time.monotonic())

    def activation_of(self, index):
        """A remote plugin's `self.activation` for endpoint `index` of the monitoring configuration."""
        name = str(self.monitoring_config_name or "").strip() or self.spec["class_name"]
        if len(self.endpoints) > 1:
            name = f"{name} (endpoint {index + 1})"
        # Text, as plugins pass it on (a test id of the Dynatrace API, a file name) and join it to text.
        return ActivationContext(str(entity_id_of("activation", self.monitoring_config_id, index)), name)

    def warn(self, key, message):
        """A warning, once per kind and metric: a plugin that does the same every minute logs it once."""
        if key not in self.warned:
            self.warned.add(key)
            log.warning(message)

    def snapshot(self):
        try:
            return as_ef1(self.get_snapshot())
        except Exception as e:
            raise RuntimeError(
                f"OneAgent's process snapshot is not available here ({e}); a local run reads snapshot.json from the "
                "working directory (a copy of OneAgent's oneagent_latest_snapshot.log)"
            ) from e

    def _descriptor(self):
        try:
            return json.loads((MODULE_DIR / DESCRIPTOR_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def _compare_key_maps(self):
        """A local run: the project's metric-keys.json, when edited, is not the one the extension reads."""
        root = Path.cwd() / KEY_MAP_FILE
        try:
            differs = root.is_file() and root.read_bytes() != (MODULE_DIR / KEY_MAP_FILE).read_bytes()
        except OSError:
            differs = False
        if differs:
            log.warning(
                "%s differs from %s, which the extension reads: run plugin-review migrate again, or copy it there",
                root,
                MODULE_DIR / KEY_MAP_FILE,
            )


EF1Plugin.aborted = False
# How many shutdown signals the extension has had (on_shutdown calls).
EF1Plugin.stops = 0


def run(package, class_name, remote, name, activation=None):
    """Runs the EF1 plugin class `class_name` of module `package` (remote: a RemoteBasePlugin) as extension `name`;
    a host plugin for the process group instances of OneAgent's snapshot that `activation` (plugin.json's
    process types, technologies, name pattern, Singleton or not) matches."""
    _log_to_extension_log()
    EF1Plugin.spec = {"package": package, "class_name": class_name, "remote": remote, "activation": activation}
    try:
        extension = EF1Plugin(name=name)
    except Exception:
        if EF1Plugin.aborted:
            sys.exit(1)  # initialize() could not start the plugin: the SDK has logged why and sent the status
        raise
    extension.run()
