"""The event objects of `ruxit.api.events`: what report_*_event sends, also as an object."""


class EventMetadata:
    """A property of an event (`key`, `value`)."""

    def __init__(self, key, value):
        self.key = key
        self.value = value


class Event:
    """An event: `event_type` (ERROR_EVENT, PERFORMANCE_EVENT, …), `title`, `description`, `properties`."""

    def __init__(self, event_type=None, title=None, description=None, properties=None, **_ignored):
        self.event_type = event_type
        self.title = title
        self.description = description
        if isinstance(properties, (list, tuple)):
            properties = {p.key: p.value for p in properties if isinstance(p, EventMetadata)}
        self.properties = properties or {}
