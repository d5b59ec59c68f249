/**
 * What the review says of each extension.yaml of ../shared/corpus/ef2/ (each file alone), and why each finding
 * is one a careful reading of Dynatrace's documentation supports. None is an error. The bracketed counts are
 * the number of findings of that rule. Files without an entry have no finding at all.
 */
export const EXPECTED_EF2: Record<string, { rules: string[]; reasons: Record<string, string> }> = {
  "004": {
    rules: ["build-placeholder", "metric-not-reported", "unknown-metric-reference"],
    reasons: {
      "build-placeholder": "a build template: `name`, `version` and twelve screen values are `<%=…%>` [14]",
      "metric-not-reported":
        "metadata for `dfs.server.replicationqueue.count`, which no WMI subgroup reports (nor a count `dfs.server.replicationqueue`) [1]",
      "unknown-metric-reference":
        "two charts on `lsass.server.ntlm.authentications.count`, which the extension neither reports nor describes [2]",
    },
  },
  "006": {
    rules: ["metric-not-reported"],
    reasons: {
      "metric-not-reported":
        "seven Prometheus counts described without the `.count` Dynatrace appends to a count's key (the screens use both keys) [7]",
    },
  },
  "008": {
    rules: ["metric-metadata-missing", "var-unused"],
    reasons: {
      "var-unused": "the VS Code add-on's diagnostics fixture: two variables no data source uses [2]",
      "metric-metadata-missing": "its one metric has no metadata (a notice) [1]",
    },
  },
  "009": {
    rules: ["metric-metadata-missing", "metric-not-reported", "unknown-metric-reference"],
    reasons: {
      "metric-not-reported":
        "the add-on's fixture describes `mock.some.metric`, which no data source reports [1]",
      "metric-metadata-missing": "six reported metrics without metadata (a notice) [6]",
      "unknown-metric-reference":
        "a topology source `$eq(mock.e1.metric.a.)` matching no key exactly, and a chart on the count `mock.e1.metric.five`, ingested as `.count` [2]",
    },
  },
  "011": {
    rules: ["metric-metadata-missing"],
    reasons: {
      "metric-metadata-missing": "the add-on's fixture: two metrics without metadata (a notice) [2]",
    },
  },
  "012": {
    rules: ["metric-metadata-missing"],
    reasons: {
      "metric-metadata-missing": "the add-on's fixture: seven metrics without metadata (a notice) [7]",
    },
  },
  "013": {
    rules: ["build-placeholder"],
    reasons: { "build-placeholder": "a build template: `name` and `version` are `<%=…%>` [2]" },
  },
  "015": {
    rules: ["build-placeholder", "invalid-yaml"],
    reasons: {
      "build-placeholder": "a build template: `name` and `version` are `<%=…%>` [2]",
      "invalid-yaml":
        "a warning: calculated metrics' quoted selectors whose lines start at their key's column, which SnakeYAML (Dynatrace's parser) reads and YAML 1.2 refuses [1]",
    },
  },
  "018": {
    rules: ["metric-metadata-missing"],
    reasons: {
      "metric-metadata-missing":
        "four reported metrics without metadata: the entity metrics and the interface octets' counts (a notice) [4]",
    },
  },
  "021": {
    rules: ["metric-metadata-missing"],
    reasons: {
      "metric-metadata-missing": "the entity metric `f5.bigip.entity` has no metadata (a notice) [1]",
    },
  },
  "023": {
    rules: ["unknown-dimension-reference"],
    reasons: {
      "unknown-dimension-reference":
        "a chart split by `trapoid` where the traps' dimension is `trap_oid`: one empty series [1]",
    },
  },
  "025": {
    rules: ["build-placeholder", "metric-not-reported"],
    reasons: {
      "build-placeholder": "a build template: `version` is `<%=version%>` [1]",
      "metric-not-reported":
        "`wait.count.count` for the count `wait.count` (Dynatrace appends `.count` only to a key without it), and two counts described without `.count` [3]",
    },
  },
};
