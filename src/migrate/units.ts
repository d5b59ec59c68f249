/** EF1 units as EF2 units: the same names (EF1's are a subset of Dynatrace's), and their per-second forms. */

/** The units of EF1's `timeseries.unit` (plugin-descriptor-spec, 2.3): each one a Dynatrace unit too. */
const EF1_UNITS = [
  "NanoSecond",
  "MicroSecond",
  "MilliSecond",
  "Second",
  "Byte",
  "KiloByte",
  "MegaByte",
  "BytePerSecond",
  "BytePerMinute",
  "KiloBytePerSecond",
  "KiloBytePerMinute",
  "MegaBytePerSecond",
  "MegaBytePerMinute",
  "Ratio",
  "Percent",
  "Promille",
  "Count",
  "PerSecond",
  "PerMinute",
];
const BY_LOWER = new Map(EF1_UNITS.map((u) => [u.toLowerCase(), u]));

/** A quantity and the same quantity per second, where Dynatrace has a unit for both. */
const PER_SECOND: Record<string, string> = {
  Count: "PerSecond",
  Byte: "BytePerSecond",
  KiloByte: "KiloBytePerSecond",
  MegaByte: "MegaBytePerSecond",
};
const OF_PER_SECOND = Object.fromEntries(Object.entries(PER_SECOND).map(([a, b]) => [b, a]));

/** The EF2 unit of an EF1 unit (matched without regard to case), or undefined when it is none. */
export function ef2Unit(unit: unknown): string | undefined {
  return typeof unit === "string" ? BY_LOWER.get(unit.toLowerCase()) : undefined;
}

/**
 * The units of a `calculateRate` metric's two EF2 metrics: the one collected (what the attribute counts) and the
 * calculated per-second one. EF1's unit names the per-second value (`PerSecond`, `BytePerSecond`) or, often,
 * the quantity itself (`Count`); `rate` is undefined where Dynatrace has no per-second unit of it.
 */
export function rateUnits(unit: string): { collected: string; rate?: string } {
  if (OF_PER_SECOND[unit]) return { collected: OF_PER_SECOND[unit], rate: unit };
  if (PER_SECOND[unit]) return { collected: unit, rate: PER_SECOND[unit] };
  return { collected: unit };
}
