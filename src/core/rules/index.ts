/** Every rule, in catalog order (docs/rules.md): one import per rule file. */
import type { Rule } from "../rule.js";
import { rule as r0 } from "./invalid-json.js";
import { rule as r1 } from "./duplicate-key.js";
import { rule as r2 } from "./file-too-large.js";
import { rule as r3 } from "./required-member.js";
import { rule as r4 } from "./invalid-type.js";
import { rule as r5 } from "./invalid-value.js";
import { rule as r6 } from "./invalid-format.js";
import { rule as r7 } from "./unknown-member.js";
import { rule as r8 } from "./name-format.js";
import { rule as r9 } from "./version-format.js";
import { rule as r10 } from "./metric-group-format.js";
import { rule as r11 } from "./metric-group-missing.js";
import { rule as r12 } from "./duplicate-plugin-name.js";
import { rule as r13 } from "./reserved-member.js";
import { rule as r14 } from "./variant-mismatch.js";
import { rule as r15 } from "./ignored-member.js";
import { rule as r16 } from "./host-entity.js";
import { rule as r17 } from "./activation-criteria-missing.js";
import { rule as r18 } from "./invalid-regex.js";
import { rule as r19 } from "./slow-regex.js";
import { rule as r20 } from "./metric-kind.js";
import { rule as r21 } from "./duplicate-metric-key.js";
import { rule as r22 } from "./displayname-equals-key.js";
import { rule as r23 } from "./rx-pid-position.js";
import { rule as r24 } from "./duplicate-alert-id.js";
import { rule as r25 } from "./alert-samples.js";
import { rule as r26 } from "./alert-placeholder.js";
import { rule as r27 } from "./keymetrics-limit.js";
import { rule as r28 } from "./unknown-metric-reference.js";
import { rule as r29 } from "./unknown-dimension-reference.js";
import { rule as r30 } from "./stacked-line.js";
import { rule as r31 } from "./config-property-unknown.js";
import { rule as r32 } from "./duplicate-property-key.js";
import { rule as r33 } from "./property-default-type.js";
import { rule as r34 } from "./dropdown-values.js";
import { rule as r35 } from "./unknown-technology.js";
import { rule as r36 } from "./unknown-process-type.js";
import { rule as r37 } from "./policy-name.js";
import { rule as r38 } from "./version-not-bumped.js";
import { rule as r39 } from "./version-decreased.js";
import { rule as r40 } from "./metric-group-changed.js";
import { rule as r41 } from "./plugin-renamed.js";
import { rule as r42 } from "./metric-removed.js";
import { rule as r43 } from "./metric-unit-changed.js";
import { rule as r44 } from "./metric-dimensions-changed.js";
import { rule as r45 } from "./property-removed.js";
import { rule as r46 } from "./base-invalid-json.js";

export const RULES: readonly Rule[] = [
  r0,
  r1,
  r2,
  r3,
  r4,
  r5,
  r6,
  r7,
  r8,
  r9,
  r10,
  r11,
  r12,
  r13,
  r14,
  r15,
  r16,
  r17,
  r18,
  r19,
  r20,
  r21,
  r22,
  r23,
  r24,
  r25,
  r26,
  r27,
  r28,
  r29,
  r30,
  r31,
  r32,
  r33,
  r34,
  r35,
  r36,
  r37,
  r38,
  r39,
  r40,
  r41,
  r42,
  r43,
  r44,
  r45,
  r46,
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.meta.id);

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.meta.id, r]));
