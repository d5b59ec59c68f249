"""The process snapshot of `ruxit.api.snapshot`, from what EF2's local data source offers.

A host plugin finds the process groups it monitors with `self.find_single_process_group(pgi_name("…"))` and the
like. On EF2 the snapshot is OneAgent's, as the EF2 SDK reads it (`Extension.get_snapshot()`; a local run reads
snapshot.json): each entry has `group_id`, `group_instance_id` (an EF2 entity id,
`PROCESS_GROUP_INSTANCE-<hex>`, where EF1 gave a number), `group_name`, `process_type`, `processes` (`pid`,
`process_name`, `properties`) and `properties`. Both `properties` are EF1's dicts of OneAgent's snapshot keys and
text values (`process.properties.get("ListeningPorts")` is `"8080 8443"`, `entry.properties["Technologies"]`
`"PYTHON,FLASK"`), which also have the EF2 SDK's attributes (`listening_ports`, `port_bindings`, `technologies`, …).
A selector is a function of an entry that says whether it matches (find_all_processes's, as EF1's, a function of a
process; it gives (entry, process) pairs); `get_technologies(entry)` and `parse_port_bindings(entry)` read an
entry's technologies and (ip, port) bindings.
"""

import re

# An EF2 entity id (PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071): its type and number. The EF2 snapshot gives the
# host's and an entry's with the hex digits as OneAgent's snapshot file writes them, in either case.
EF2_ENTITY_ID = re.compile(r"([A-Z][A-Z_]*)-([0-9A-Fa-f]{16})")


class EntityId(int):
    """An id of the snapshot (`host_id`, an entry's `group_id` and `group_instance_id`) as EF1 gave it: a number,
    which plugins format (`"%x" % id`, `f"{id:02x}"`) and keep as one; its text is its EF2 entity id
    (`PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071`, hex digits in upper case), as the layer sends it and Dynatrace
    shows it."""

    def __new__(cls, number, entity_type):
        entity_id = super().__new__(cls, number)
        entity_id.entity_type = entity_type
        return entity_id

    def __str__(self):
        return "%s-%016X" % (self.entity_type, self)


def _entity_id(value):
    """The snapshot's id `value` (the EF2 SDK's text) as an EntityId; as it is when it is no EF2 entity id."""
    match = EF2_ENTITY_ID.fullmatch(value.strip()) if isinstance(value, str) else None
    return EntityId(int(match.group(2), 16), match.group(1)) if match else value


# A process's EF1 properties: OneAgent's snapshot key, and the EF2 SDK's attribute it was parsed into.
_PROCESS_KEYS = (
    ("CmdLine", "cmd_line"),
    ("ExePath", "exe_path"),
    ("ParentPid", "parent_pid"),
    ("WorkDir", "work_dir"),
    ("ListeningPorts", "listening_ports"),
    ("PortBindings", "port_bindings"),
    ("DockerMount", "docker_mount"),
    ("DockerContainerId", "docker_container_id"),
    ("ListeningInternalPorts", "listening_internal_ports"),
)


class Ef1Properties(dict):
    """EF1's `properties` of a snapshot entry or process: a dict of OneAgent's snapshot keys and their text, as
    plugins read them (`.get("ListeningPorts")`), that also answers the EF2 SDK's attributes (`.port_bindings`)."""

    def __init__(self, items, ef2):
        super().__init__(items)
        self.__dict__["_ef2"] = ef2

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.__dict__["_ef2"], name)


def _process_text(key, value):
    """A process property's value as OneAgent's snapshot file writes it, or None where it has none."""
    if key == "ListeningPorts":
        return " ".join(str(p) for p in value) if value else None
    if key == "PortBindings":
        return ";".join(f"{b.ip}_{b.port}" for b in value) if value else None
    if key == "ParentPid":
        return None if value is None or value == -1 else str(value)
    return None if value is None else str(value)


def as_ef1(snapshot):
    """`snapshot` (the EF2 SDK's) as EF1 gave it: its ids numbers (EntityId), its entries' and processes'
    `properties` dicts."""
    if hasattr(snapshot, "host_id"):
        snapshot.host_id = _entity_id(snapshot.host_id)
    for entry in getattr(snapshot, "entries", None) or []:
        for attribute in ("group_id", "group_instance_id"):
            if hasattr(entry, attribute):
                setattr(entry, attribute, _entity_id(getattr(entry, attribute)))
        properties = getattr(entry, "properties", None)
        if properties is not None and not isinstance(properties, dict):
            items = {}
            for key, attribute in (("Technologies", "technologies"), ("pgTechnologies", "pg_technologies")):
                listed = [t for t in getattr(properties, attribute, None) or [] if t]
                if listed:
                    items[key] = ",".join(listed)
            items.update(getattr(properties, "extra_properties", None) or {})
            entry.properties = Ef1Properties(items, properties)
        for process in getattr(entry, "processes", None) or []:
            properties = getattr(process, "properties", None)
            if properties is not None and not isinstance(properties, dict):
                items = {}
                for key, attribute in _PROCESS_KEYS:
                    text = _process_text(key, getattr(properties, attribute, None))
                    if text is not None:
                        items[key] = text
                process.properties = Ef1Properties(items, properties)
    return snapshot


def get_technologies(entry):
    """The technologies of a process group (a snapshot entry): `JAVA`, `PYTHON`, … (its `Technologies`)."""
    properties = getattr(entry, "properties", None)
    if isinstance(properties, dict):
        listed = properties.get("Technologies") or ""
        return [t for t in (listed.split(",") if isinstance(listed, str) else listed) if t]
    return [t for t in (getattr(properties, "technologies", None) or []) if t]


def parse_port_bindings(entry):
    """The addresses a process group's processes listen on, as (ip, port) tuples (their `PortBindings`)."""
    bindings = []
    for process in getattr(entry, "processes", None) or []:
        for binding in getattr(getattr(process, "properties", None), "port_bindings", None) or []:
            bindings.append((binding.ip, binding.port))
    return bindings


def _of_entries(selector):
    """Marks one of the selectors here, which are functions of a process group (a snapshot entry): find_all_processes
    gives the processes of the process groups it matches, where it calls a plugin's own selector with each process."""
    selector.of_entries = True
    return selector


def pgi_name(name):
    """The process groups named `name` (EF1's process group name)."""
    return _of_entries(lambda entry: getattr(entry, "group_name", None) == name)


def exe_name(name):
    """The process groups with a process named `name`."""
    return _of_entries(
        lambda entry: any(getattr(p, "process_name", None) == name for p in getattr(entry, "processes", []))
    )


def technology(name):
    """The process groups of a technology (`Technologies` of the snapshot: JAVA, PYTHON, …)."""

    def matches(entry):
        properties = getattr(entry, "properties", None)
        return name in (getattr(properties, "technologies", None) or [])

    return _of_entries(matches)


class ProcessOfGroup(tuple):
    """What EF1's find_all_processes gave for a process: the pair (process group, process), which plugins unpack
    (`pgi, process = found`, `found[1].pid`); it also has the process's members (`found.pid`)."""

    def __new__(cls, entry, process):
        return super().__new__(cls, (entry, process))

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self[1], name)


def processes_of(entries, selector):
    """The (process group, process) pairs of `entries` whose process the selector (a function of a process, as
    EF1's) matches; all of them without one; those of the process groups one of the selectors here matches."""
    if isinstance(selector, str):
        selector = pgi_name(selector)
    found = []
    for entry in entries:
        if selector is not None and getattr(selector, "of_entries", False) and not selector(entry):
            continue
        for process in getattr(entry, "processes", None) or []:
            if selector is None or getattr(selector, "of_entries", False) or selector(process):
                found.append(ProcessOfGroup(entry, process))
    return found


def select(entries, selector):
    """The entries a selector (a function of an entry, or a process group name) matches."""
    if isinstance(selector, str):
        selector = pgi_name(selector)
    if selector is None:
        return list(entries)
    return [entry for entry in entries if selector(entry)]
