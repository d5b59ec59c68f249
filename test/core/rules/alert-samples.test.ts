import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

type Obj = Record<string, unknown>;

const withCounts = (doc: Obj, counts: Obj): string =>
  make(doc, (d) => {
    Object.assign(at(d, "metrics", 0, "alert_settings", 0), counts);
  });

const zeroSamples = withCounts(validHost(), { samples: 0 });
const tooManyViolating = withCounts(validHost(), { samples: 5, violating_samples: 6 });
const negativeDealerting = withCounts(validRemote(), { dealerting_samples: -1 });
const allZero = withCounts(validHost(), { samples: 0, violating_samples: 0, dealerting_samples: 0 });
const zeroViolating = withCounts(validRemote(), { violating_samples: 0 });

ruleTable("alert-samples", {
  valid: [
    { name: "host example (5 / 3 / 5)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "violating_samples equal to samples",
      doc: withCounts(validHost(), { samples: 3, violating_samples: 3 }),
    },
    {
      name: "all 1",
      doc: withCounts(validHost(), { samples: 1, violating_samples: 1, dealerting_samples: 1 }),
    },
    {
      name: "dealerting_samples larger than samples (a separate count)",
      doc: withCounts(validHost(), { samples: 3, violating_samples: 2, dealerting_samples: 10 }),
    },
    {
      name: "counts of the wrong type are for invalid-type, not this rule",
      doc: withCounts(validHost(), { samples: "0", violating_samples: "9" }),
    },
    {
      name: "missing counts are for required-member",
      doc: make(validHost(), (d) => {
        const a = at(d, "metrics", 0, "alert_settings", 0);
        delete a.samples;
        delete a.violating_samples;
      }),
    },
    { name: "rule turned off", doc: allZero, options: { config: { rules: { "alert-samples": "off" } } } },
  ],
  invalid: [
    {
      name: "samples 0, at the value",
      messageId: "belowOne",
      data: { count: "samples", value: 0 },
      doc: zeroSamples,
      lines: [lineOf(zeroSamples, '"samples": 0')],
      message: "`samples` is 0; it must be at least 1",
      severity: "error",
    },
    {
      name: "violating_samples above samples",
      messageId: "exceeds",
      doc: tooManyViolating,
      lines: [lineOf(tooManyViolating, '"violating_samples": 6')],
      message: "`violating_samples` (6) exceeds `samples` (5): the alert can never be raised",
    },
    {
      name: "remote: negative dealerting_samples",
      messageId: "belowOne",
      doc: negativeDealerting,
      lines: [lineOf(negativeDealerting, '"dealerting_samples": -1')],
      message: "`dealerting_samples` is -1",
    },
    {
      name: "remote: violating_samples 0",
      messageId: "belowOne",
      doc: zeroViolating,
      lines: [lineOf(zeroViolating, '"violating_samples": 0')],
      message: "at least 1",
    },
    {
      name: "all three 0: one finding each, no comparison against an invalid samples",
      messageId: "belowOne",
      doc: allZero,
      lines: [
        lineOf(allZero, '"samples": 0'),
        lineOf(allZero, '"violating_samples": 0'),
        lineOf(allZero, '"dealerting_samples": 0'),
      ],
      message: "it must be at least 1",
    },
  ],
});
