"""The exceptions an EF1 plugin raises to tell the engine its state, as the EF2 extension's status.

- ConfigException: the configuration is wrong (EF2 status INVALID_CONFIG_ERROR);
- AuthException: the credentials are refused (EF2 status AUTHENTICATION_ERROR);
- NothingToReportException: nothing to report this time (EF2 status OK, nothing sent).

NotCarriedToEF2 is the layer's own: raised where a plugin uses what EF2 has no counterpart for (MIGRATION.md lists
each such call with its line).
"""


class PluginException(Exception):
    """The base of the exceptions a plugin raises to tell the engine something."""


class ConfigException(PluginException):
    """The plugin's configuration is wrong: the extension's status is INVALID_CONFIG_ERROR."""


class AuthException(PluginException):
    """The monitored system refused the credentials: the extension's status is AUTHENTICATION_ERROR."""


class NothingToReportException(PluginException):
    """Nothing to report for this run: the status stays OK and nothing is sent."""


class NotCarriedToEF2(PluginException):
    """An EF1 call the compatibility layer cannot carry to Extensions 2.0 (see MIGRATION.md)."""

    def __init__(self, call, why, instead):
        super().__init__(f"{call} cannot run on Extensions 2.0: {why}. {instead}")
        self.call = call
