/**
 * The rule registry: every rule keyed by its id, in catalog order (docs/rules.md, SARIF). The catalog test
 * checks that each key is its rule's `meta.id` and its file's name, with a docs page and a table test.
 */
import type { Rule } from "../rule.js";
import { rule as invalidJson } from "./invalid-json.js";
import { rule as duplicateKey } from "./duplicate-key.js";
import { rule as fileTooLarge } from "./file-too-large.js";
import { rule as requiredMember } from "./required-member.js";
import { rule as invalidType } from "./invalid-type.js";
import { rule as invalidValue } from "./invalid-value.js";
import { rule as invalidFormat } from "./invalid-format.js";
import { rule as unknownMember } from "./unknown-member.js";
import { rule as nameFormat } from "./name-format.js";
import { rule as versionFormat } from "./version-format.js";
import { rule as metricGroupFormat } from "./metric-group-format.js";
import { rule as metricGroupMissing } from "./metric-group-missing.js";
import { rule as duplicatePluginName } from "./duplicate-plugin-name.js";
import { rule as reservedMember } from "./reserved-member.js";
import { rule as variantMismatch } from "./variant-mismatch.js";
import { rule as ignoredMember } from "./ignored-member.js";
import { rule as hostEntity } from "./host-entity.js";
import { rule as activationCriteriaMissing } from "./activation-criteria-missing.js";
import { rule as invalidRegex } from "./invalid-regex.js";
import { rule as slowRegex } from "./slow-regex.js";
import { rule as metricKind } from "./metric-kind.js";
import { rule as duplicateMetricKey } from "./duplicate-metric-key.js";
import { rule as displaynameEqualsKey } from "./displayname-equals-key.js";
import { rule as rxPidPosition } from "./rx-pid-position.js";
import { rule as duplicateAlertId } from "./duplicate-alert-id.js";
import { rule as alertSamples } from "./alert-samples.js";
import { rule as alertPlaceholder } from "./alert-placeholder.js";
import { rule as keymetricsLimit } from "./keymetrics-limit.js";
import { rule as unknownMetricReference } from "./unknown-metric-reference.js";
import { rule as unknownDimensionReference } from "./unknown-dimension-reference.js";
import { rule as stackedLine } from "./stacked-line.js";
import { rule as configPropertyUnknown } from "./config-property-unknown.js";
import { rule as duplicatePropertyKey } from "./duplicate-property-key.js";
import { rule as propertyDefaultType } from "./property-default-type.js";
import { rule as dropdownValues } from "./dropdown-values.js";
import { rule as unknownTechnology } from "./unknown-technology.js";
import { rule as unknownProcessType } from "./unknown-process-type.js";
import { rule as policyName } from "./policy-name.js";
import { rule as versionNotBumped } from "./version-not-bumped.js";
import { rule as versionDecreased } from "./version-decreased.js";
import { rule as metricGroupChanged } from "./metric-group-changed.js";
import { rule as pluginRenamed } from "./plugin-renamed.js";
import { rule as metricRemoved } from "./metric-removed.js";
import { rule as metricUnitChanged } from "./metric-unit-changed.js";
import { rule as metricDimensionsChanged } from "./metric-dimensions-changed.js";
import { rule as propertyRemoved } from "./property-removed.js";
import { rule as baseInvalidJson } from "./base-invalid-json.js";

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ["invalid-json", invalidJson],
  ["duplicate-key", duplicateKey],
  ["file-too-large", fileTooLarge],
  ["required-member", requiredMember],
  ["invalid-type", invalidType],
  ["invalid-value", invalidValue],
  ["invalid-format", invalidFormat],
  ["unknown-member", unknownMember],
  ["name-format", nameFormat],
  ["version-format", versionFormat],
  ["metric-group-format", metricGroupFormat],
  ["metric-group-missing", metricGroupMissing],
  ["duplicate-plugin-name", duplicatePluginName],
  ["reserved-member", reservedMember],
  ["variant-mismatch", variantMismatch],
  ["ignored-member", ignoredMember],
  ["host-entity", hostEntity],
  ["activation-criteria-missing", activationCriteriaMissing],
  ["invalid-regex", invalidRegex],
  ["slow-regex", slowRegex],
  ["metric-kind", metricKind],
  ["duplicate-metric-key", duplicateMetricKey],
  ["displayname-equals-key", displaynameEqualsKey],
  ["rx-pid-position", rxPidPosition],
  ["duplicate-alert-id", duplicateAlertId],
  ["alert-samples", alertSamples],
  ["alert-placeholder", alertPlaceholder],
  ["keymetrics-limit", keymetricsLimit],
  ["unknown-metric-reference", unknownMetricReference],
  ["unknown-dimension-reference", unknownDimensionReference],
  ["stacked-line", stackedLine],
  ["config-property-unknown", configPropertyUnknown],
  ["duplicate-property-key", duplicatePropertyKey],
  ["property-default-type", propertyDefaultType],
  ["dropdown-values", dropdownValues],
  ["unknown-technology", unknownTechnology],
  ["unknown-process-type", unknownProcessType],
  ["policy-name", policyName],
  ["version-not-bumped", versionNotBumped],
  ["version-decreased", versionDecreased],
  ["metric-group-changed", metricGroupChanged],
  ["plugin-renamed", pluginRenamed],
  ["metric-removed", metricRemoved],
  ["metric-unit-changed", metricUnitChanged],
  ["metric-dimensions-changed", metricDimensionsChanged],
  ["property-removed", propertyRemoved],
  ["base-invalid-json", baseInvalidJson],
]);

/** Rule ids in catalog order. */
export const RULE_IDS: readonly string[] = [...RULES_BY_ID.keys()];

/** Rules in catalog order. */
export const RULES: readonly Rule[] = [...RULES_BY_ID.values()];
