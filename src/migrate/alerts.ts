/**
 * Each EF1 `alert_settings` entry as an EF2 metric event: the JSON the configuration API (v1) gives for one,
 * which an extension lists in `alerts:`. Dynatrace states no mapping; this is by name (shared/spec: the fields
 * one to one, the description's placeholders to EF2's). A state metric's alert watches its state's gauge.
 */
import { createHash } from "node:crypto";
import { arr, get, isObj, str, type Obj } from "../core/guards.js";
import type { DescriptorMigration } from "./context.js";
import { STATE_DIMENSION, type Ef1Metric } from "../core/ef2/key-map.js";
import { q, said } from "./notes.js";
import { ef2Unit } from "./units.js";
import { ef2Selector } from "../core/ef2/selectors.js";
import { EXTENSION_FILE } from "./written.js";

/** At most this many files in `alerts:` (extension.yaml's documented limit). */
export const MAX_ALERTS = 10;
/** EF2 samples are minutes, at most an hour's. */
const MAX_SAMPLES = 60;

export interface AlertFile {
  path: string;
  event: object;
}

const SEVERITY: Record<string, string> = {
  PERFORMANCE_EVENT: "PERFORMANCE",
  ERROR_EVENT: "ERROR",
  AVAILABILITY_EVENT: "AVAILABILITY",
};

/** A string in a metric selector: quoted, its `~` and `"` escaped with `~` (the selector's own escape). */
function selectorString(s: string): string {
  return `"${s.replace(/[~"]/g, (c) => `~${c}`)}"`;
}

/** An EF1 unit as the metric events API's unit (`MilliSecond` → `MILLI_SECOND`). */
function apiUnit(unit: string): string {
  return unit.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * A UUID (in version 5's form: SHA-1 of a name) from the extension's name and the alert's place: the same
 * descriptor always gives the same id, so that a migration is byte for byte repeatable.
 */
function uuidOf(name: string): string {
  const h = createHash("sha1").update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** A count of samples as EF2 takes it: an integer from 1 to `max`, said so when EF1's differs. */
function samples(
  m: DescriptorMigration,
  value: unknown,
  fallback: number,
  max: number,
  pointer: string,
): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  const fitted = Number.isInteger(n) ? Math.min(Math.max(n, 1), max) : fallback;
  if (fitted !== n)
    m.note(
      "changed",
      pointer,
      said`${q(value ?? "(none)")} is not a count of samples from 1 to ${max} (minutes): it is ${fitted}`,
    );
  return fitted;
}

/** The description with EF1's placeholders as EF2's; a placeholder EF2 lacks is replaced, and said so. */
function description(m: DescriptorMigration, text: string, alert: Obj, pointer: string): string {
  let out = text.replace(/\{dimensions\}/g, "{dims}");
  if (out.includes("{violating_samples}")) {
    const n = String(alert.violating_samples ?? "");
    out = out.replace(/\{violating_samples\}/g, n);
    m.note(
      "changed",
      pointer,
      said`EF2 has no \`{violating_samples}\`: it is the configured number, ${q(n)}`,
    );
  }
  if (out.includes("{severity}")) {
    out = out.replace(/\{severity\}/g, "{alert_condition} {threshold}");
    m.note(
      "changed",
      pointer,
      said`EF1's \`{severity}\` is the violating value, EF2's the event's severity: it is \`{alert_condition} {threshold}\``,
    );
  }
  return out;
}

/** The metric events of every metric's `alert_settings`, at most 10 (the rest are notes). */
export function alertFiles(m: DescriptorMigration, metrics: readonly Ef1Metric[], name: string): AlertFile[] {
  const files: AlertFile[] = [];
  const used = new Set<string>();
  for (const metric of metrics) {
    if (metric.ef1.kind === "timeseries" && metric.element.statetimeseries !== undefined) continue; // alerts belong to one
    arr(metric.element.alert_settings).forEach((alert, i) => {
      const pointer = `/metrics/${metric.index}/alert_settings/${i}`;
      if (!isObj(alert)) return;
      if (files.length >= MAX_ALERTS) {
        m.note("dropped", pointer, said`an extension lists at most ${MAX_ALERTS} alert files`);
        return;
      }
      const id = str(alert.alert_id);
      let base = (id ?? `alert-${files.length + 1}`)
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
      if (!base) base = `alert-${files.length + 1}`;
      let file = base;
      for (let n = 2; used.has(file); n++) file = `${base}-${n}`;
      used.add(file);

      const state = metric.ef1.kind === "statetimeseries";
      const stateName = str(alert.state_name);
      const rate = metric.ef2.rateKey !== undefined;
      const target: Record<string, string> = {};
      if (state) {
        target.metricSelector = `${metric.ef2.key}:filter(eq("${STATE_DIMENSION}",${selectorString(stateName ?? "")}))`;
        m.note(
          "changed",
          pointer,
          said`EF1 alerted while ${q(metric.ef1.key)} was in state ${q(stateName ?? "(none)")}; the EF2 event alerts while that state's gauge is above 0 (EF1's threshold ${q(alert.threshold ?? "(none)")} and condition are not used)`,
        );
      } else if (rate || metric.ef2.aggregation) {
        // EF1's series (per second, or the MBeans' maximum…), one-minute samples as EF1's.
        target.metricSelector = ef2Selector({
          key: metric.ef2.key,
          ...(metric.ef2.type ? { type: metric.ef2.type } : {}),
          ...(metric.ef2.aggregation ? { aggregation: metric.ef2.aggregation } : {}),
          perSecond: rate,
        });
      } else target.metricId = metric.ef2.key;

      const samplesPointer = (k: string) => `${pointer}/${k}`;
      const total = samples(m, alert.samples, 5, MAX_SAMPLES, samplesPointer("samples"));
      const violating = samples(
        m,
        alert.violating_samples,
        Math.min(3, total),
        total,
        samplesPointer("violating_samples"),
      );
      const dealerting = samples(
        m,
        alert.dealerting_samples,
        total,
        MAX_SAMPLES,
        samplesPointer("dealerting_samples"),
      );
      const condition = state
        ? "ABOVE"
        : str(alert.alert_condition)?.toUpperCase() === "BELOW"
          ? "BELOW"
          : "ABOVE";
      if (!state && str(alert.alert_condition)?.toUpperCase() !== condition)
        m.note(
          "changed",
          `${pointer}/alert_condition`,
          said`${q(alert.alert_condition ?? "(none)")} is not ABOVE or BELOW: it is ABOVE`,
        );
      let threshold = 0;
      if (!state) {
        const t = typeof alert.threshold === "number" ? alert.threshold : Number(alert.threshold);
        if (Number.isFinite(t)) threshold = t;
        else
          m.note(
            "changed",
            `${pointer}/threshold`,
            said`${q(alert.threshold ?? "(none)")} is not a number: the threshold is 0`,
          );
      }
      const eventType = str(alert.event_type)?.toUpperCase() ?? "";
      const severity = SEVERITY[eventType];
      if (!severity)
        m.note(
          "changed",
          `${pointer}/event_type`,
          said`${q(alert.event_type ?? "(none)")} is not an EF1 event type: the severity is \`CUSTOM_ALERT\``,
        );
      const unit = ef2Unit(metric.spec.unit);
      const event = {
        id: uuidOf(`${name}\u0000${metric.ef1.key}\u0000${id ?? String(i)}`),
        ...target,
        name: str(alert.event_name) ?? id ?? metric.ef1.key,
        description: description(m, str(alert.description) ?? "", alert, `${pointer}/description`),
        aggregationType: "AVG",
        severity: severity ?? "CUSTOM_ALERT",
        enabled: str(alert.default_state)?.toLowerCase() !== "inactive",
        monitoringStrategy: {
          type: "STATIC_THRESHOLD",
          samples: total,
          violatingSamples: violating,
          dealertingSamples: dealerting,
          alertCondition: condition,
          alertingOnMissingData: false,
          threshold,
          ...(unit && !state && !rate ? { unit: apiUnit(unit) } : {}),
        },
      };
      files.push({ path: `alerts/${file}.json`, event });
    });
  }
  if (files.length)
    m.note(
      "todo",
      firstAlert(metrics),
      said`Dynatrace imports an extension's metric events disabled after each upload and activation, and an update overwrites edits made in the UI: enable them in Settings (anomaly detection, metric events)`,
      { file: EXTENSION_FILE, pointer: "/alerts" },
    );
  return files;
}

function firstAlert(metrics: readonly Ef1Metric[]): string {
  const m = metrics.find((x) => arr(get(x.element, "alert_settings")).length > 0);
  return m ? `/metrics/${m.index}/alert_settings` : "/metrics";
}
