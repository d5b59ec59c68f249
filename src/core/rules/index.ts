/**
 * The rule registry: every rule in catalog order (docs/rules.md, SARIF), each known by its `meta.id`, the one
 * place its id is written. The catalog test checks that each rule file is named after its rule's id, that no
 * id is taken twice, and that each rule has a docs page and a table test.
 */
import { isSetRule, type DocumentRule, type Rule, type SetRule } from "../rule.js";
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
import { rule as metricTypeChanged } from "./metric-type-changed.js";
import { rule as featureSetRemoved } from "./feature-set-removed.js";
import { rule as propertyTypeChanged } from "./property-type-changed.js";
import { rule as minVersionRaised } from "./min-version-raised.js";
import { rule as minVersionTooLow } from "./min-version-too-low.js";
import { rule as baseInvalidJson } from "./base-invalid-json.js";
import { rule as invalidYaml } from "./invalid-yaml.js";
import { rule as ef2VersionFormat } from "./ef2-version-format.js";
import { rule as multipleDataSources } from "./multiple-data-sources.js";
import { rule as buildPlaceholder } from "./build-placeholder.js";
import { rule as metricNotReported } from "./metric-not-reported.js";
import { rule as metricMetadataMissing } from "./metric-metadata-missing.js";
import { rule as varUndeclared } from "./var-undeclared.js";
import { rule as varUnused } from "./var-unused.js";
import { rule as featureSetUndefined } from "./feature-set-undefined.js";
import { rule as pythonModuleMissing } from "./python-module-missing.js";
import { rule as assetMissing } from "./asset-missing.js";
import { rule as activationSchemaInvalid } from "./activation-schema-invalid.js";
import { rule as activationPropertyUnused } from "./activation-property-unused.js";
import { rule as migrationMetricMissing } from "./migration-metric-missing.js";
import { rule as migrationMetricTypeChanged } from "./migration-metric-type-changed.js";
import { rule as migrationDimensionDropped } from "./migration-dimension-dropped.js";

/** Rules in catalog order. */
export const RULES: readonly Rule[] = [
  invalidJson,
  duplicateKey,
  fileTooLarge,
  requiredMember,
  invalidType,
  invalidValue,
  invalidFormat,
  unknownMember,
  nameFormat,
  versionFormat,
  metricGroupFormat,
  metricGroupMissing,
  duplicatePluginName,
  reservedMember,
  variantMismatch,
  ignoredMember,
  hostEntity,
  activationCriteriaMissing,
  invalidRegex,
  slowRegex,
  metricKind,
  duplicateMetricKey,
  displaynameEqualsKey,
  rxPidPosition,
  duplicateAlertId,
  alertSamples,
  alertPlaceholder,
  keymetricsLimit,
  unknownMetricReference,
  unknownDimensionReference,
  stackedLine,
  configPropertyUnknown,
  duplicatePropertyKey,
  propertyDefaultType,
  dropdownValues,
  unknownTechnology,
  unknownProcessType,
  policyName,
  versionNotBumped,
  versionDecreased,
  metricGroupChanged,
  pluginRenamed,
  metricRemoved,
  metricUnitChanged,
  metricDimensionsChanged,
  propertyRemoved,
  metricTypeChanged,
  featureSetRemoved,
  propertyTypeChanged,
  minVersionRaised,
  baseInvalidJson,
  invalidYaml,
  ef2VersionFormat,
  multipleDataSources,
  minVersionTooLow,
  buildPlaceholder,
  metricNotReported,
  metricMetadataMissing,
  varUndeclared,
  varUnused,
  featureSetUndefined,
  pythonModuleMissing,
  assetMissing,
  activationSchemaInvalid,
  activationPropertyUnused,
  migrationMetricMissing,
  migrationMetricTypeChanged,
  migrationDimensionDropped,
];

/** Rule ids in catalog order. */
export const RULE_IDS: readonly string[] = RULES.map((r) => r.meta.id);

/** Every rule by its id. */
export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.meta.id, r]));

/** The rules that run on each document (`check`), in catalog order. */
export const DOCUMENT_RULES: readonly DocumentRule[] = RULES.filter((r): r is DocumentRule => !isSetRule(r));

/** The rules that run across the descriptors checked together (`checkSet`), in catalog order. */
export const SET_RULES: readonly SetRule[] = RULES.filter(isSetRule);
