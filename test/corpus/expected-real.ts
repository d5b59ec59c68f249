/**
 * Expected rule ids for each real descriptor in ../shared/corpus/real/, checked alone, default configuration, no base
 * (so no change rules and no duplicate-plugin-name). Derived by reading each file against
 * ../shared/spec/plugin-descriptor-spec.md and ../shared/spec/rules.md (cross-checked with an independent throw-away
 * checker), not copied from the tool's output. `reasons` explains every entry; counts in brackets (` [n]`) are the
 * number of findings the reading gives for that rule, and a reason with counts sums to that rule's findings (real.test.ts
 * asserts it).
 *
 * Decisions where the spec is silent (agreed for this project): every member the spec's tables do not define is an
 * unknown-member (metric-level `source`, a series `dimensions` list and the undocumented members table of rules.md
excepted); remote `source.activation` may be
 * `Remote` or `Singleton`; property types, aggregation, mergeaggregation and seriestype are case-insensitive;
 * `displayOrder` may be an integer or a string; a JMX plugin needs no top-level `source` (rules.md, required-member); metric keys
 * with dots are invalid-format; an empty processTypeNames/technologies list counts as absent; a chart series may name a
 * statetimeseries key (a state chart), which is no unknown-metric-reference.
 */
export interface Expectation {
  rules: string[];
  reasons: Record<string, string>;
}

export const EXPECTED_REAL: Record<string, Expectation> = {
  "001__Dynatrace__JMX-Extensions__ActiveMQ--plugin.json": {
    rules: ["invalid-format", "metric-group-missing", "name-format", "required-member"],
    reasons: {
      "invalid-format": "metric keys with dots (`Topic.AverageMessageSize`, `Topic.ConsumerCount`) [2]",
      "metric-group-missing": "no `metricGroup`",
      "name-format": "`jmx.ActiveMQ` lacks the custom.<kind>. prefix",
      "required-member": `none of the 9 timeseries has \`displayname\` [9] (a JMX plugin needs no \`source\`)`,
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "002__Dynatrace__JMX-Extensions__BoneCP_extension--plugin.json": {
    rules: ["name-format"],
    reasons: {
      "name-format": "`custom.bonecp.jmx`: `bonecp` is not one of jmx, python, pmi (the kind comes first)",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "003__Dynatrace__JMX-Extensions__MongoDB_extension--plugin.json": {
    rules: ["displayname-equals-key", "name-format"],
    reasons: {
      "displayname-equals-key": "metrics[2] has key and displayname `Size`",
      "name-format": "`custom.mongodb.jmx`: `mongodb` is not one of jmx, python, pmi",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "004__Dynatrace__JMX-Extensions__Netflix_OSS_extensions--plugin.json": {
    rules: ["name-format"],
    reasons: {
      "name-format": "`custom.netflix.servo`: `netflix` is not one of jmx, python, pmi",
    },
  },
  "005__Dynatrace__JMX-Extensions__Ruxit_built-in_extensions--hornetq--plugin.json": {
    rules: ["invalid-format", "metric-group-missing", "name-format", "required-member"],
    reasons: {
      "invalid-format": "metric keys with dots (`Queue.ConsumerCount`, …) [5]",
      "metric-group-missing": "no `metricGroup`",
      "name-format": "`jmx.HornetQ` lacks the custom.<kind>. prefix",
      "required-member": `none of the 5 timeseries has \`displayname\` [5] (a JMX plugin needs no \`source\`)`,
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "006__Dynatrace__JMX-Extensions__Ruxit_built-in_extensions--ruxit.jmx.appserver.jetty--plugin.json": {
    rules: ["displayname-equals-key", "name-format"],
    reasons: {
      "displayname-equals-key": "metrics[5] has key and displayname `connections`",
      "name-format": "`ruxit.jmx.appserver.jetty` (built-in naming) lacks the custom. prefix",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "007__Dynatrace__JMX-Extensions__Ruxit_built-in_extensions--ruxit.jmx.appserver--plugin.json": {
    rules: ["invalid-format", "name-format"],
    reasons: {
      "invalid-format": "metric keys with dots (`tomcat.currentThreadsBusy`, …) [5]",
      "name-format": "`ruxit.jmx.appserver` lacks the custom. prefix",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "008__Dynatrace__JMX-Extensions__Ruxit_built-in_extensions--ruxit.jmx.hornetq--plugin.json": {
    rules: ["invalid-format", "name-format"],
    reasons: {
      "invalid-format": "metric keys with dots (`Queue.ConsumerCount`, …) [5]",
      "name-format": "`ruxit.jmx.hornetq` lacks the custom. prefix",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "009__Dynatrace__JMX-Extensions__Ruxit_built-in_extensions--ruxit.jmx.solr--plugin.json": {
    rules: ["invalid-format", "name-format"],
    reasons: {
      "invalid-format": "metric keys with dots (`searcher.deletedDocs`, `update.adds`, …) [24]",
      "name-format": "`ruxit.jmx.solr` lacks the custom. prefix",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "010__Dynatrace__JMX-Extensions__Tomcat_JDBC_ext--plugin.json": {
    rules: ["displayname-equals-key"],
    reasons: {
      "displayname-equals-key": "displayname equals key for `Size`, `MaxActive`, `Active` [3]",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "011__Dynatrace__JMX-Extensions__c3p0_extension--plugin.json": {
    rules: [],
    reasons: {},
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "012__Dynatrace__JMX-Extensions__crate.io_extension--plugin.json": {
    rules: ["metric-group-missing", "unknown-member"],
    reasons: {
      "metric-group-missing": "no `metricGroup`",
      "unknown-member": "`configUI.displayname` (the spec's member is `displayName`)",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "013__Dynatrace__JMX-Extensions__unfinished_extensions--ActiveMQ--plugin.json": {
    rules: ["invalid-format"],
    reasons: {
      "invalid-format": "metric keys with dots (`Topic.AverageMessageSize`, `Topic.ConsumerCount`) [2]",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "014__vegardit__activemq-artemis-dynatrace-plugin__artemis-overview-plugin--custom--plugin.json": {
    rules: [],
    reasons: {},
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "015__vegardit__activemq-artemis-dynatrace-plugin__artemis-queues-plugin--custom--plugin.json": {
    rules: [],
    reasons: {},
  },
  "016__redis-field-engineering__dynatrace-activegate-for-redis-enterprise__plugin.json": {
    rules: ["ignored-member", "invalid-format", "reserved-member", "unknown-member"],
    reasons: {
      "ignored-member": "remote plugin with `requiredAgentVersion`",
      "invalid-format": "metric keys with dots (`redis_enterprise.license_days`, …) [2]",
      "reserved-member": "`productiveMinVersion`",
      "unknown-member": "timeseries `entity` [2] and configUI.properties[].`defaultValue` [4]",
    },
  },
  "017__redis-field-engineering__dynatrace-activegate-for-redis-enterprise__plugin--plugin.json": {
    rules: ["ignored-member", "invalid-format", "reserved-member", "unknown-member"],
    reasons: {
      "ignored-member": "remote plugin with `requiredAgentVersion`",
      "invalid-format": "metric keys with dots (`redis_enterprise.total_active_nodes`, …) [58]",
      "reserved-member": "`productiveMinVersion`",
      "unknown-member": "timeseries `entity` [58] and configUI.properties[].`defaultValue` [4]",
    },
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "018__martiroman__dynatrace-activegate-extensions__calc_apdex--plugin.json": {
    rules: [],
    reasons: {},
  },
  "019__martiroman__dynatrace-activegate-extensions__isilonQuota--plugin.json": {
    rules: ["invalid-format"],
    reasons: { "invalid-format": "metric key `isilon.quota` has a dot" },
  },
  "020__martiroman__dynatrace-activegate-extensions__isilon_quotas--plugin.json": {
    rules: ["displayname-equals-key"],
    reasons: { "displayname-equals-key": "metrics[0] has key and displayname `isilonQuota`" },
  },
  "021__martiroman__dynatrace-activegate-extensions__metric-filter--plugin.json": {
    rules: [],
    reasons: {},
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "022__martiroman__dynatrace-activegate-extensions__snmp_linux_plugin--plugin.json": {
    rules: ["ignored-member", "invalid-format"],
    reasons: {
      "ignored-member": "remote plugin with `processTypeNames`",
      "invalid-format": "metric keys with dots (`linux.cpu.usage`, `linux.memory`) [2]",
    },
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "023__martiroman__dynatrace-activegate-extensions__tcp_activegate_plugin--plugin.json": {
    rules: ["ignored-member", "invalid-format"],
    reasons: {
      "ignored-member": "remote plugin with `processTypeNames`",
      "invalid-format": "metric keys with dots (`tcp.established`, `tcp.time_wait`) [2]",
    },
  },
  "024__BraydenNeale__DT-SNMP__plugin.json": {
    rules: ["ignored-member"],
    reasons: { "ignored-member": "remote plugin with `processTypeNames` and `requiredAgentVersion` [2]" },
  },
  "025__tomix86__oneagent-nvbit-extension__extension--plugin.json": {
    rules: ["variant-mismatch"],
    reasons: {
      "variant-mismatch":
        "host plugin with property type `dropdown` (remote-only type; types are case-insensitive); its `dropdownValues` are part of that one finding, not an ignored-member too",
    },
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "026__dlopes7__ag-extension-rabbitmq-ef1__src--plugin.json": {
    rules: [],
    reasons: {},
  },
  "027__mediro-ict__activegate_python_ssl_plugin__plugin.json": {
    rules: ["ignored-member"],
    reasons: { "ignored-member": "remote plugin with `processTypeNames`" },
  },
  "028__360Performance__dynatrace-plugin-certcheck__certcheck_plugin--plugin.json": {
    rules: ["reserved-member"],
    reasons: { "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]" },
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "029__reinhard-brandstaedter__dynatrace-plugin-exasol__exasol_plugin--plugin.json": {
    rules: ["alert-placeholder", "invalid-format", "keymetrics-limit", "reserved-member", "stacked-line"],
    reasons: {
      "alert-placeholder": "`{metricname}` in alert descriptions (notice) [4]",
      "invalid-format": "metric keys with dots (`node.load`, `sessions.idle`, …) [24]",
      "keymetrics-limit": "4 keymetrics",
      "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]",
      "stacked-line": "charts[5] series 1 and 2: `stacked: true` on `line` [2]",
    },
  },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "030__reinhard-brandstaedter__dynatrace-plugin-exasol__exasol_plugin--plugin_deployment--custom.remote.python.exasol--plugin.json":
    {
      rules: ["alert-placeholder", "invalid-format", "keymetrics-limit", "reserved-member", "stacked-line"],
      reasons: {
        "alert-placeholder": "`{metricname}` in an alert description (notice)",
        "invalid-format": "metric keys with dots (`node.load`, `dbsize.raw_object_size`, …) [20]",
        "keymetrics-limit": "4 keymetrics",
        "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]",
        "stacked-line": "charts[5] series 1 and 2: `stacked: true` on `line` [2]",
      },
    },
  // no unknown-member: its chart `link`/`explanation`, series `metricexplanation`/`statechart`/`statecolors`, timeseries `topxconfig`, alert `state_name`/`default_state` are undocumented members that rules.md makes known
  "031__reinhard-brandstaedter__dynatrace-plugin-exasol__plugin_deployment--custom.remote.python.exasol--plugin.json":
    {
      rules: ["alert-placeholder", "invalid-format", "keymetrics-limit", "reserved-member", "stacked-line"],
      reasons: {
        "alert-placeholder": "`{metricname}` in alert descriptions (notice) [4]",
        "invalid-format": "metric keys with dots (`node.load`, `sessions.idle`, …) [24]",
        "keymetrics-limit": "4 keymetrics",
        "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]",
        "stacked-line": "charts[5] series 1 and 2: `stacked: true` on `line` [2]",
      },
    },
  "032__wmsegar__activegateplugin-mongodb-atlas__plugin.json": {
    rules: ["ignored-member", "reserved-member", "unknown-member"],
    reasons: {
      "ignored-member": "remote plugin with `processTypeNames` and `requiredAgentVersion` [2]",
      "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]",
      "unknown-member":
        "keychart-level `key`/`displayname` and the misspelt series `metricexplaination` [72]",
    },
  },
  "033__juliusloman__dynatrace-oneagent-plugin-sslcertcheck__plugin.json": {
    rules: ["host-entity"],
    reasons: { "host-entity": "host plugin with entity `HOST`" },
  },
  "034__Visium360__dynatrace-oneagent-plugin-certificates__plugin.json": {
    rules: ["activation-criteria-missing", "ignored-member", "invalid-format"],
    reasons: {
      "activation-criteria-missing": "host plugin with none of processTypeNames, processTypes, technologies",
      "ignored-member": "host plugin with `favicon`",
      "invalid-format": "metric key `certificate.valid_days` has a dot",
    },
  },
  "035__yaypm__oneagent-plugin-ssl__plugin.json": {
    rules: ["metric-group-missing", "unknown-member"],
    reasons: {
      "metric-group-missing": "no `metricGroup`",
      "unknown-member": "top-level `activation` (the spec defines it inside `source` only)",
    },
  },
  "036__juliusloman__dynatrace-oneagent-plugin-hostsessioncount__plugin.json": {
    rules: ["host-entity"],
    reasons: { "host-entity": "host plugin with entity `HOST`" },
  },
  "037__dlopes7__lpl-training-extensions__src--plugin.json": {
    rules: ["unknown-member"],
    reasons: {
      "unknown-member":
        "`displayName` (camel case) in keymetrics and series [8]; series `statechart`/`statecolors` are undocumented members rules.md makes known; the state chart naming statetimeseries `weather` is a valid reference",
    },
  },
  "038__peterhack__activegateplugin-gcloud__src--plugin.json": {
    rules: ["ignored-member", "invalid-format", "metric-group-missing", "unknown-member"],
    reasons: {
      "ignored-member": "remote plugin with `requiredAgentVersion`",
      "invalid-format": "metric keys with dots (`compute.googleapis.com-instance-cpu-utilization`, …) [10]",
      "metric-group-missing": "no `metricGroup`",
      "unknown-member":
        "keychart-level `aggregation`/`mergeaggregation`/`displayname` [3]; series `metricexplanation` is an undocumented member rules.md makes known",
    },
  },
  "039__Dynatrace-Reinhard-Pilz__Dynatrace-CloudHub-ActiveGate-Plugin__plugin.json": {
    rules: ["ignored-member", "keymetrics-limit", "metric-group-missing"],
    reasons: {
      "ignored-member": "remote plugin with `processTypeNames`",
      "keymetrics-limit": "4 keymetrics",
      "metric-group-missing": "no `metricGroup`",
    },
  },
  "040__yaypm__oneagent-plugin-perfmon__plugin.json": {
    rules: [
      "displayname-equals-key",
      "duplicate-metric-key",
      "invalid-format",
      "metric-group-missing",
      "unknown-member",
    ],
    reasons: {
      "displayname-equals-key": "both metrics have key and displayname `<queuename>` [2]",
      "duplicate-metric-key": "two timeseries with key `<queuename>`",
      "invalid-format": "metric key `<queuename>` has `<` and `>` [2]",
      "metric-group-missing": "no `metricGroup`",
      "unknown-member": "top-level `activation` (the spec defines it inside `source` only)",
    },
  },
  "041__43034r__Dynatrace_OneAgent_healthcheck_plugin__custom.python.healthcheck_plugin--plugin.json": {
    rules: ["host-entity", "unknown-member", "variant-mismatch"],
    reasons: {
      "host-entity": "host plugin with entity `HOST`",
      "unknown-member":
        "series `displayName` (camel case) [2]; alert `state_name` and series `statecolors`/`statechart` are undocumented members rules.md makes known; the state charts naming `oneagent_state` are valid references",
      "variant-mismatch": "host plugin with a `statetimeseries` (remote only)",
    },
  },
  // no activation-criteria-missing: its entity is `HOST`, active on every host (rules.md)
  "042__kirk63__OneAgent-Extension-v1-ADTest__custom.python.adtest--plugin.json": {
    rules: ["host-entity", "variant-mismatch"],
    reasons: {
      "host-entity": "host plugin with entity `HOST`",
      "variant-mismatch":
        "host plugin with property type `Dropdown` (remote only); its `dropdownValues` are part of that one finding, not an ignored-member too",
    },
  },
  "043__dlopes7__accenture-training-plugins__src--plugin.json": {
    rules: ["unknown-member"],
    reasons: {
      "unknown-member":
        "`displayName` (camel case) in keymetrics and series [3]; series `statechart`/`statecolors` are undocumented members rules.md makes known; the state chart naming statetimeseries `clima` is a valid reference",
    },
  },
  // no required-member: JMX descriptor without `source` (optional for JMX plugins)
  "044__tukanuk__supporting-materials__jmx--1.0--plugin.json": {
    rules: ["invalid-format", "reserved-member", "unknown-member"],
    reasons: {
      "invalid-format":
        "metric keys with dots (`kafka.server.BrokerTopicMetrics.BytesInPerSec.OneMinuteRate`, …) [42] and alert_ids with dots [3]",
      "reserved-member": "`experimentalMinVersion` and `productiveMinVersion` [2]",
      "unknown-member":
        "metric-level `unit` [1], `ui.pgmetrics` [1], the misspelt series `mergeraggregation` [3]; alert `default_state` is an undocumented member rules.md makes known",
    },
  },
  "045__tukanuk__supporting-materials__python--v1--plugin.json": {
    rules: ["host-entity", "invalid-format"],
    reasons: {
      "host-entity": "host plugin with entity `HOST`",
      "invalid-format": "metric keys with dots (`disk.total`, `cpu.usage`, …) [5]",
    },
  },
};
