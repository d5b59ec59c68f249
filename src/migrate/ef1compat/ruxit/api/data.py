"""The measurement objects of `ruxit.api.data`, for the results builder's add_* methods."""


class PluginMeasurement:
    """One measurement: `key` (the metric's timeseries key), `value`, `dimensions` (a dict)."""

    def __init__(self, key, value, dimensions=None, entity_selector=None, entity_id=None, **_ignored):
        self.key = key
        self.value = value
        self.dimensions = dimensions
        self.entity_selector = entity_selector
        self.entity_id = entity_id


class PluginStateMetric(PluginMeasurement):
    """A state of a `statetimeseries` metric: `value` is the state's name."""


class PluginProperty:
    """A property of an entity (`key`, `value`): EF2 code has no entity properties (see report_property)."""

    def __init__(self, key=None, value=None, me_attribute=None, entity_selector=None, **_ignored):
        self.key = key
        self.value = value
        self.me_attribute = me_attribute
        self.entity_selector = entity_selector


class MEAttribute:
    """The kinds of entity property EF1 knew; kept so that plugins that name them import."""

    CUSTOM_PG_METADATA = "CUSTOM_PG_METADATA"
    CUSTOM_DEVICE_METADATA = "CUSTOM_DEVICE_METADATA"
    CUSTOM_HOST_METADATA = "CUSTOM_HOST_METADATA"


class StatCounterDataPoint:
    """A summary of several values (min, max, sum, count): EF2's SummaryStat gauge."""

    def __init__(self, min=0, max=0, sum=0, count=0):  # noqa: A002 (EF1's names)
        self.min = min
        self.max = max
        self.sum = sum
        self.count = count
