"""The entity selectors of `ruxit.api.selectors`.

EF1 sent a host plugin's measurement to another entity with them. EF2 code reports metrics, not entities: a
process group instance becomes the dimension `dt.entity.process_group_instance` (ListenPortSelector's: the one of
OneAgent's snapshot whose process listens on the port); any other entity cannot be
carried, and a measurement that names one raises NotCarriedToEF2. FromPluginSelector names the entity the plugin
reports on anyway (EF1's default), and changes nothing.
"""


class EntityType:
    HOST = "HOST"
    PROCESS_GROUP = "PROCESS_GROUP"
    PROCESS_GROUP_INSTANCE = "PROCESS_GROUP_INSTANCE"
    CUSTOM_DEVICE = "CUSTOM_DEVICE"
    CUSTOM_DEVICE_GROUP = "CUSTOM_DEVICE_GROUP"


class EntitySelector:
    """The base of the selectors."""

    entity_type = None
    entity_id = None


class FromPluginSelector(EntitySelector):
    """The entity the plugin reports on without a selector (EF1's default): a host plugin's process group instance,
    a group's or device's own for their reports."""

    from_plugin = True

    def __init__(self, *_args, **_ignored):
        pass


class ExplicitSelector(EntitySelector):
    """One entity by its id (and type)."""

    def __init__(self, entity_id=None, entity_type=EntityType.PROCESS_GROUP_INSTANCE, **_ignored):
        self.entity_id = entity_id
        self.entity_type = entity_type


class ExplicitPgiSelector(ExplicitSelector):
    """One process group instance by its id."""

    def __init__(self, entity_id=None, **_ignored):
        super().__init__(entity_id, EntityType.PROCESS_GROUP_INSTANCE)


class HostSelector(EntitySelector):
    """The host the plugin runs on: EF2 reports a local extension's metrics on it."""

    entity_type = EntityType.HOST


class PgSelector(EntitySelector):
    """A process group: EF2 code cannot report on one."""

    def __init__(self, entity_id=None, **_ignored):
        self.entity_id = entity_id
        self.entity_type = EntityType.PROCESS_GROUP


class ListenPortSelector(EntitySelector):
    """The process group instance whose process listens on TCP port `port_number` (certificate and port checks name
    the process they found a port of so): the one of OneAgent's snapshot that listens on it, when the layer sends."""

    entity_type = EntityType.PROCESS_GROUP_INSTANCE

    def __init__(self, port_number=None, **_ignored):
        self.port_number = port_number
