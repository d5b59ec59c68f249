"""What an EF1 plugin reports, recorded: the results builder, the topology builder and its groups and devices.

Each call appends a Report to the plugin's Recorder; the layer (ef1compat/__init__.py) takes them after
initialize and after each query and sends them as EF2 metrics and events. Nothing is sent from here.
"""
import hashlib
import re

from .exceptions import NotCarriedToEF2
from .selectors import EntityType
from .snapshot import EF2_ENTITY_ID, EntityId

EVENT_TYPES = {
    "report_error_event": "ERROR_EVENT",
    "report_performance_event": "PERFORMANCE_EVENT",
    "report_availability_event": "AVAILABILITY_EVENT",
    "report_resource_contention_event": "RESOURCE_CONTENTION_EVENT",
    "report_custom_info_event": "CUSTOM_INFO",
    "report_custom_deployment_event": "CUSTOM_DEPLOYMENT",
    "report_custom_annotation_event": "CUSTOM_ANNOTATION",
}


# How many groups and devices explicit selectors can name: a plugin that names a new device every run does not
# fill the memory.
ENTITIES_KEPT = 10000
# EF1's entity ids as text, as plugins pass them on (an id read from a file, a configuration, an API, or formatted):
# the number's decimal digits (Java's long: signed), or its hex digits after 0x.
_DECIMAL_ID = re.compile(r"-?[0-9]{1,20}")
_HEX_ID = re.compile(r"0[xX][0-9A-Fa-f]{1,16}")
_ID_BITS = 0xFFFFFFFFFFFFFFFF
# How many distinct endpoints a device keeps of one run (only the first is sent, as `device.address`).
ENDPOINTS_KEPT = 100


class ListenPort:
    """The process group instance a ListenPortSelector names: the snapshot's instance whose process listens on
    `port`, which the layer finds when it sends (ef1compat's Sender), as EF1's agent found it."""

    __slots__ = ("port",)

    def __init__(self, port):
        self.port = port

    def __eq__(self, other):
        return isinstance(other, ListenPort) and other.port == self.port

    def __hash__(self):
        return hash(("port", self.port))


class OnHost:
    """The host a measurement or event names (`HostSelector()`, `entity_id=` of the host's id): a measurement goes
    there without a process group instance dimension (a local extension's metrics are its host's); a host plugin's
    event is raised on the host's entity, which the layer reads from OneAgent's snapshot when it sends (ef1compat's
    Sender), as EF1's agent raised it there, not on the environment, where an event without an entity goes."""

    __slots__ = ()

    def __repr__(self):
        return "ON_HOST"


ON_HOST = OnHost()


class Report:
    """One EF1 report: `kind` (absolute, relative, per_second, state, property, event), `key`, `value`,
    `dimensions` (as the plugin gave them), the `group` and `device` it was made on (remote plugins), the process
    group instance it names (`pgi`), and an event's `event` (type, title, description, properties)."""

    __slots__ = ("kind", "key", "value", "dimensions", "group", "device", "pgi", "event")

    def __init__(self, kind, key, value, dimensions, group=None, device=None, pgi=None, event=None):
        self.kind = kind
        self.key = key
        self.value = value
        self.dimensions = dimensions
        self.group = group
        self.device = device
        self.pgi = pgi
        self.event = event


def _named(name):
    """Whether the plugin gave a group or device a name: one that is None, empty or blank is none (it is named by
    its identifier then), not an entity whose name dimension is empty."""
    return name is not None and str(name).strip() != ""


def _with_fields(properties, fields):
    """An event's properties, and the EF1 fields its call gave (those it gave no value left out) where the
    properties do not name them already."""
    merged = dict(properties or {})
    for key, value in fields.items():
        if _named(value):
            merged.setdefault(key, value)
    return merged


def _keep_latest(entities, key, entity):
    """Puts `entity` last in `entities`, which keeps the latest ENTITIES_KEPT."""
    entities.pop(key, None)
    entities[key] = entity
    while len(entities) > ENTITIES_KEPT:
        del entities[next(iter(entities))]


class Recorder:
    def __init__(self):
        self.reports = []
        # The groups and devices by their `id`, which plugins pass back in explicit selectors (also a group kept
        # from initialize or an earlier run): the latest ENTITIES_KEPT of them.
        self.entities = {}
        # Which run reports now: 0 for initialize, then one more for each query (new_run).
        self.run = 0
        # The id of the plugin's own entity, which a remote plugin reads as `self.activation.entity_id` (a number):
        # what names it reports where the results builder reports without naming an entity.
        self.own_id = None

    def register(self, entity):
        _keep_latest(self.entities, entity.id, entity)

    def new_run(self):
        """Before each query: what a device holds of one run (its endpoints) starts anew in the next."""
        self.run += 1

    def take(self):
        reports, self.reports = self.reports, []
        return reports


def ef2_entity_id(value):
    """`value` as an EF2 entity id as Dynatrace writes it (`PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071`, the hex digits
    in upper case, as the EF1 agent's numbers are formatted), or None when it is not one. A dimension or entity
    selector in lower case names no entity, and one process group instance would be two series."""
    match = EF2_ENTITY_ID.fullmatch(str(value).strip()) if value is not None else None
    return f"{match.group(1)}-{match.group(2).upper()}" if match else None


def entity_id_of(*parts):
    """The id of a group or device: a number derived from the plugin and the identifiers, as EF1 derived it, the
    same in every run (Dynatrace's own numbers are the cluster's; plugins only pass the id back to selectors)."""
    digest = hashlib.sha256("\0".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") & 0x7FFFFFFFFFFFFFFF


def entity_number(value):
    """An EF1 entity id as its number (64 bits, unsigned), or None when `value` is no id: EF1 took an int, and
    plugins pass ids on as text too, in decimal (`str(id)`, `self.activation.entity_id`) or hex (`"0x…"`,
    `hex(id)`), which name the same entity."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _DECIMAL_ID.fullmatch(value.strip()):
        number = int(value.strip())
    elif isinstance(value, str) and _HEX_ID.fullmatch(value.strip()):
        number = int(value.strip(), 16)
    else:
        return None
    # Java's long: a negative id is the same 64 bits as the unsigned number; one wider than 64 bits is no id.
    return number & _ID_BITS if -(1 << 63) <= number <= _ID_BITS else None


def _own(reporter, number):
    """(process group instance, group, device) of the entity of the plugin's that `number` names, or None: the
    plugin's own (a remote plugin's self.activation.entity_id), where its results builder reports without naming
    an entity; or a group or device it created."""
    recorder = reporter._recorder
    if number is not None and number == recorder.own_id:
        return None, None, None
    entity = recorder.entities.get(number)
    return None if entity is None else (None, entity._group, entity._device)


def _not_an_id(call, entity_id):
    return NotCarriedToEF2(
        f"{call}(entity_id={str(entity_id).strip()[:100]!r})",
        "it is no entity id (EF1 took an entity's id as a number, also as text of its decimal digits or 0x hex), "
        "and EF2 code reports metrics, not entities: only a process group instance, the host, or a group or "
        "device the plugin created can be named (as dimensions)",
        "Pass the entity's id (self.activation.entity_id, a group's or device's .id), or report the metric without "
        "entity_id= and with a dimension that tells the entity apart.",
    )


def _target(call, reporter, entity_id, entity_selector):
    """Where a measurement or event goes: (process group instance, group, device). The reporter's own group and
    device (FromPluginSelector() names them too), unless entity_id= or an explicit selector names a process group
    instance (the dimension dt.entity.process_group_instance), the host (ON_HOST), or a group or device
    of the plugin's (its dimensions); any other entity raises NotCarriedToEF2."""
    own = reporter._recorder.entities
    if getattr(entity_selector, "from_plugin", False):
        entity_selector = None  # FromPluginSelector(): where the reporter reports anyway
    if entity_selector is not None:
        kind = getattr(entity_selector, "entity_type", None)
        selected = getattr(entity_selector, "entity_id", None)
        if kind == EntityType.HOST:
            return ON_HOST, reporter._group, reporter._device
        if kind == EntityType.PROCESS_GROUP_INSTANCE and hasattr(entity_selector, "port_number"):
            return ListenPort(entity_selector.port_number), reporter._group, reporter._device
        if kind in (EntityType.CUSTOM_DEVICE_GROUP, EntityType.CUSTOM_DEVICE):
            number = entity_number(selected)
            entity = own.get(number)
            if entity is not None and entity.entity_type == kind:
                return None, entity._group, entity._device
            if number is not None and number == reporter._recorder.own_id:
                return None, None, None
        if kind != EntityType.PROCESS_GROUP_INSTANCE or selected is None:
            raise NotCarriedToEF2(
                f"{call}(entity_selector={type(entity_selector).__name__})",
                "EF2 code reports metrics, not entities: only a process group instance, the host, or a group or "
                "device the plugin created can be named (as dimensions)",
                "Report the metric without the selector, or with a dimension that tells the entity apart.",
            )
        entity_id = selected
    if entity_id is None:
        return reporter._pgi, reporter._group, reporter._device
    if isinstance(entity_id, EntityId):
        # An id of the snapshot: its type (a host's, a process group's) tells where it goes, as its text says.
        entity_id = str(entity_id)
    number = entity_number(entity_id)
    if number is not None:
        mine = _own(reporter, number)
        if mine is not None:
            return mine
        # EF1 gave process group instance ids as numbers; EF2's entity id is the same number in hex.
        return "PROCESS_GROUP_INSTANCE-%016X" % number, reporter._group, reporter._device
    # An EF2 entity id of the snapshot (its host_id, an entry's group_id): the host, as with HostSelector; a process group is no entity EF2 code reports on, nor a dimension value of a process group
    # instance.
    kind = EF2_ENTITY_ID.fullmatch(str(entity_id).strip())
    if kind and kind.group(1) in (EntityType.CUSTOM_DEVICE, EntityType.CUSTOM_DEVICE_GROUP):
        # A group's or device's id as Dynatrace writes it (CUSTOM_DEVICE-<hex of its id>).
        mine = own.get(int(kind.group(2), 16))
        if mine is not None and mine.entity_type == kind.group(1):
            return None, mine._group, mine._device
    if kind and kind.group(1) == EntityType.HOST:
        return ON_HOST, reporter._group, reporter._device
    if kind and kind.group(1) == EntityType.PROCESS_GROUP_INSTANCE:
        return ef2_entity_id(entity_id), reporter._group, reporter._device
    if kind:
        raise NotCarriedToEF2(
            f"{call}(entity_id={str(entity_id).strip()!r})",
            "EF2 code reports metrics, not entities: only a process group instance, the host, or a group or device "
            "the plugin created can be named (as dimensions)",
            "Report the metric without entity_id=, or with a dimension that tells the entity apart.",
        )
    # Text that is no id (a host name, an entity's name): EF1 took none; sent as it is, it would be a process group
    # instance dimension that names no entity.
    raise _not_an_id(call, entity_id)


class _Reporting:
    """The reporting calls shared by the results builder, a group and a device."""

    _recorder = None
    _group = None
    _device = None
    # A host plugin's process group instance (EF2 entity id), where its results_builder reports by default.
    _pgi = None

    def _add(self, call, kind, key, value, dimensions=None, entity_id=None, entity_selector=None, **_ignored):
        pgi, group, device = _target(call, self, entity_id, entity_selector)
        self._recorder.reports.append(
            Report(kind, key, value, dict(dimensions) if dimensions else None, group, device, pgi)
        )

    def absolute(self, key=None, value=None, dimensions=None, **kwargs):
        """A value, sent as it is (an EF2 gauge)."""
        self._add("absolute", "absolute", key, value, dimensions, **kwargs)

    def relative(self, key=None, value=None, dimensions=None, **kwargs):
        """A monotonic counter: from the second run on, its increase is sent (an EF2 count); a decrease sends nothing."""
        self._add("relative", "relative", key, value, dimensions, **kwargs)

    def per_second(self, key=None, value=None, dimensions=None, **kwargs):
        """A monotonic counter: from the second run on, its increase per second is sent (an EF2 gauge)."""
        self._add("per_second", "per_second", key, value, dimensions, **kwargs)

    def state_metric(self, key=None, value=None, dimensions=None, **kwargs):
        """The current state of a statetimeseries metric: an EF2 gauge of 1 with the dimension `state`."""
        self._add("state_metric", "state", key, value, dimensions, **kwargs)

    def report_property(self, key=None, value=None, **kwargs):
        """A property of the entity: EF2 code has no entity properties; logged once, not sent."""
        self._add("report_property", "property", key, value, None, **kwargs)

    # The measurement objects of ruxit.api.data.
    def add_absolute_result(self, measurement):
        self._add_measurement("absolute", measurement)

    def add_relative_result(self, measurement):
        self._add_measurement("relative", measurement)

    def add_per_second_result(self, measurement):
        self._add_measurement("per_second", measurement)

    def add_state_result(self, measurement):
        self._add_measurement("state_metric", measurement)

    add_absolute = add_absolute_result
    add_relative = add_relative_result
    add_per_second = add_per_second_result
    add_state = add_state_result

    def add_property(self, prop):
        self.report_property(prop.key, prop.value, entity_selector=getattr(prop, "entity_selector", None))

    def _add_measurement(self, call, m):
        getattr(self, call)(
            m.key,
            m.value,
            m.dimensions,
            entity_id=getattr(m, "entity_id", None),
            entity_selector=getattr(m, "entity_selector", None),
        )

    def _event(self, call, description=None, title=None, properties=None, **kwargs):
        pgi, group, device = _target(call, self, kwargs.get("entity_id"), kwargs.get("entity_selector"))
        event = {
            "type": EVENT_TYPES[call],
            "title": title,
            "description": description,
            "properties": dict(properties or {}),
        }
        self._recorder.reports.append(Report("event", None, None, None, group, device, pgi, event=event))

    def report_event(self, event):
        """An event of ruxit.api.events."""
        call = next((c for c, t in EVENT_TYPES.items() if t == getattr(event, "event_type", None)), None)
        self._event(call or "report_custom_info_event", event.description, event.title, event.properties)

    def report_error_event(self, description=None, title=None, properties=None, **kwargs):
        self._event("report_error_event", description, title, properties, **kwargs)

    def report_performance_event(self, description=None, title=None, properties=None, **kwargs):
        self._event("report_performance_event", description, title, properties, **kwargs)

    def report_availability_event(self, description=None, title=None, properties=None, **kwargs):
        self._event("report_availability_event", description, title, properties, **kwargs)

    def report_resource_contention_event(self, description=None, title=None, properties=None, **kwargs):
        self._event("report_resource_contention_event", description, title, properties, **kwargs)

    def report_custom_info_event(self, description=None, title=None, properties=None, **kwargs):
        self._event("report_custom_info_event", description, title, properties, **kwargs)

    def report_custom_deployment_event(
        self,
        source=None,
        project=None,
        version=None,
        ci_link=None,
        remediation_action_link=None,
        deployment_name=None,
        properties=None,
        description=None,
        title=None,
        **kwargs,
    ):
        """A deployment, with EF1's fields: the Events API's dt.event.deployment.* properties (the version is the
        one release detection reads) and `source`; titled by its name, else its project and version."""
        fields = {
            "dt.event.deployment.name": deployment_name,
            "dt.event.deployment.version": version,
            "dt.event.deployment.project": project,
            "dt.event.deployment.ci_back_link": ci_link,
            "dt.event.deployment.remediation_action_link": remediation_action_link,
            "source": source,
        }
        if not _named(title):
            title = deployment_name if _named(deployment_name) else " ".join(
                str(v) for v in (project, version) if _named(v)
            )
        properties = _with_fields(properties, fields)
        self._event("report_custom_deployment_event", description, title, properties, **kwargs)

    def report_custom_annotation_event(
        self, description=None, annotation_type=None, source=None, properties=None, title=None, **kwargs
    ):
        """An annotation, with EF1's fields: titled by its annotation type; the type and `source` as properties."""
        properties = _with_fields(properties, {"annotation_type": annotation_type, "source": source})
        if not _named(title):
            title = annotation_type
        self._event("report_custom_annotation_event", description, title, properties, **kwargs)


class ResultsBuilder(_Reporting):
    """`self.results_builder`: reports on the plugin's own entity (EF2: the extension's, without group or device)."""

    def __init__(self, recorder):
        self._recorder = recorder


class Device(_Reporting):
    """A custom device of a group (`group.create_device`): on EF2, the dimensions `device` and `device.name` (with
    `group` and `group.name`) of every metric reported on it; its first endpoint is `device.address`."""

    entity_type = EntityType.CUSTOM_DEVICE

    def __init__(self, recorder, group, identifier, name):
        self._recorder = recorder
        self._group = group
        self._device = self
        self.identifier = identifier
        self.name = name
        # The endpoints of the latest run that added any (EF1 sent the topology anew with each query): a device
        # the plugin keeps from run to run and gives its endpoint every query holds that query's, not every one.
        self.endpoints = []
        self._endpoints_run = None
        # What EF1's selectors and entity_id= took: ExplicitSelector(device.id, EntityType.CUSTOM_DEVICE).
        self.id = entity_id_of(group.id, identifier)
        recorder.register(self)

    def add_endpoint(self, ip=None, port=None, dnsNames=None, port_list=None, range_list=None, **_ignored):  # noqa: N803 (EF1's name)
        """An address of the device: this run's first becomes the dimension `device.address` of its metrics."""
        if self._endpoints_run != self._recorder.run:
            self._endpoints_run = self._recorder.run
            self.endpoints = []
        endpoint = {"ip": ip, "port": port, "dnsNames": dnsNames, "ports": port_list, "ranges": range_list}
        if endpoint not in self.endpoints and len(self.endpoints) < ENDPOINTS_KEPT:
            self.endpoints.append(endpoint)

    @property
    def address(self):
        if not self.endpoints or not self.endpoints[0]["ip"]:
            return None
        first = self.endpoints[0]
        return f"{first['ip']}:{first['port']}" if first["port"] is not None else str(first["ip"])


class Group(_Reporting):
    """A custom device group (`topology_builder.create_group`): on EF2, the dimensions `group` and `group.name`."""

    entity_type = EntityType.CUSTOM_DEVICE_GROUP

    def __init__(self, recorder, plugin, identifier, name):
        self._recorder = recorder
        self._group = self
        self.identifier = identifier
        self.name = name
        self._devices = {}
        # What EF1's selectors took: ExplicitSelector(group.id, EntityType.CUSTOM_DEVICE_GROUP).
        self.id = entity_id_of(plugin, identifier)
        recorder.register(self)

    def create_device(self, identifier=None, display_name=None, **_ignored):
        key = str(identifier)
        device = self._devices.get(key)
        if device is None:
            name = display_name if _named(display_name) else identifier
            device = Device(self._recorder, self, identifier, name)
        elif _named(display_name):
            # EF1 sent the topology anew with each query: a device of a group the plugin keeps from run to run has
            # the name the plugin gives it now, not the one of the run that first named it.
            device.name = display_name
        # A group the plugin keeps from run to run keeps the latest ENTITIES_KEPT devices, not every one it named.
        _keep_latest(self._devices, key, device)
        return device

    def create_element(self, identifier=None, element_name=None, **_ignored):
        return self.create_device(identifier, element_name)


class TopologyBuilder:
    """`self.topology_builder` of a remote plugin: its groups, each the same object for the same identifier."""

    def __init__(self, recorder, plugin=None):
        self._recorder = recorder
        # The EF1 plugin's name: a group's id is derived from it and the group's identifier.
        self._plugin = plugin
        self._groups = {}

    def create_group(self, identifier=None, group_name=None, **_ignored):
        key = str(identifier)
        if key not in self._groups:
            name = group_name if _named(group_name) else identifier
            self._groups[key] = Group(self._recorder, self._plugin, identifier, name)
        return self._groups[key]

    def _reset(self):
        """Before each query: EF1 built the topology anew each time."""
        self._groups = {}
