/**
 * Is a file named extension.yaml a Dynatrace Extensions 2.0 extension? Other tools name their files so too
 * (Firebase Extensions' `extension.yaml` has a `name` and a `version`), and their authors must not get our
 * findings. An extension says what it is: it has `minDynatraceVersion` (which no other tool's file has, and
 * every extension must), or a `name` in Dynatrace's namespaces (`custom:` for an extension of one's own,
 * `com.dynatrace.` for Dynatrace's), so that one that lacks `minDynatraceVersion` is still reviewed and told.
 * Pure: a parsed value in, a yes or a no out.
 */
import { get, isObj, str } from "../guards.js";

/** Names that only Dynatrace extensions carry. */
const EXTENSION_NAME = /^(custom:|com\.dynatrace\.)/;

export function isExtensionDocument(value: unknown): boolean {
  if (!isObj(value)) return false;
  if (Object.hasOwn(value, "minDynatraceVersion")) return true;
  const name = str(get(value, "name"));
  return name !== undefined && EXTENSION_NAME.test(name);
}

/** Why an extension.yaml is not reviewed, for the summaries that say so (of several files: NOT_EXTENSIONS). */
export const NOT_AN_EXTENSION =
  "not an Extensions 2.0 extension (it has no `minDynatraceVersion` and no `custom:` name), so it is not reviewed";
export const NOT_EXTENSIONS =
  "not Extensions 2.0 extensions (they have no `minDynatraceVersion` and no `custom:` name), so they are not reviewed";
