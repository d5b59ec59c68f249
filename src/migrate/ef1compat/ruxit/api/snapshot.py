"""The process snapshot of `ruxit.api.snapshot`, from what EF2's local data source offers.

A host plugin finds the process groups it monitors with `self.find_single_process_group(pgi_name("…"))` and the
like. On EF2 the snapshot is OneAgent's, as the EF2 SDK reads it (`Extension.get_snapshot()`; a local run reads
snapshot.json): each entry has `group_id`, `group_instance_id` (an EF2 entity id,
`PROCESS_GROUP_INSTANCE-<hex>`, where EF1 gave a number), `group_name`, `process_type`, `processes` (`pid`,
`process_name`, `properties`) and `properties`. A selector is a function of an entry that says whether it matches;
`get_technologies(entry)` and `parse_port_bindings(entry)` read an entry's technologies and (ip, port) bindings.
"""


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


def pgi_name(name):
    """The process groups named `name` (EF1's process group name)."""
    return lambda entry: getattr(entry, "group_name", None) == name


def exe_name(name):
    """The process groups with a process named `name`."""
    return lambda entry: any(getattr(p, "process_name", None) == name for p in getattr(entry, "processes", []))


def technology(name):
    """The process groups of a technology (`Technologies` of the snapshot: JAVA, PYTHON, …)."""

    def matches(entry):
        properties = getattr(entry, "properties", None)
        return name in (getattr(properties, "technologies", None) or [])

    return matches


def select(entries, selector):
    """The entries a selector (a function of an entry, or a process group name) matches."""
    if isinstance(selector, str):
        selector = pgi_name(selector)
    if selector is None:
        return list(entries)
    return [entry for entry in entries if selector(entry)]
