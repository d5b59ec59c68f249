import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

const HOST_NAME = /^custom\.(jmx|python|pmi)\./;

/**
 * Something the other variant requires, or that breaks this one. The schema reports remote `type` and
 * `entity` (routed here by `x-rule`); the rest is checked below.
 */
export const rule: Rule = {
  meta: {
    id: "variant-mismatch",
    kind: "document",
    defaultSeverity: "error",
    description:
      "Something the other variant requires or that breaks this one (type, entity, statetimeseries, property types).",
  },
  check(ctx) {
    const out: RawFinding[] = ctx.schemaFindings
      .filter((f) => f.ruleId === this.meta.id)
      .map((f) => finding(this.meta, f.pointer, `${f.message} (remote plugin)`, { target: f.target }));
    const doc = ctx.value;
    const activation = str(get(get(doc, "source"), "activation"));
    if (ctx.variant === "host") {
      arr(get(doc, "metrics")).forEach((m, i) => {
        if (get(m, "statetimeseries") !== undefined) {
          out.push(
            finding(
              this.meta,
              `/metrics/${i}/statetimeseries`,
              "`statetimeseries` is only supported by remote plugins",
              {
                target: "key",
              },
            ),
          );
        }
      });
      arr(get(doc, "properties")).forEach((p, i) => {
        const t = str(get(p, "type"))?.toLowerCase();
        if (t === "textarea" || t === "dropdown") {
          out.push(
            finding(
              this.meta,
              `/properties/${i}/type`,
              `property type \`${str(get(p, "type"))}\` is only supported by remote plugins; host types are STRING, BOOLEAN, INTEGER, FLOAT, PASSWORD`,
            ),
          );
        }
      });
      if (activation === "Remote") {
        out.push(
          finding(
            this.meta,
            "/source/activation",
            "activation `Remote` is for remote plugins; host plugins use `Singleton` or `SnapshotEntry`",
          ),
        );
      }
    } else {
      const name = str(get(doc, "name"));
      const entity = str(get(doc, "entity"));
      // Once per location: a `CUSTOM_DEVICE_X` entity is already reported above by the schema.
      const entityReported = out.some((f) => f.pointer === "/entity");
      if (
        !entityReported &&
        name !== undefined &&
        HOST_NAME.test(name) &&
        entity?.startsWith("CUSTOM_DEVICE")
      ) {
        out.push(
          finding(
            this.meta,
            "/entity",
            `entity \`${entity}\` makes this a remote plugin, but the name \`${name}\` is a host plugin name (remote names start with \`custom.remote.\`)`,
          ),
        );
      }
      if (activation === "SnapshotEntry") {
        out.push(
          finding(
            this.meta,
            "/source/activation",
            "activation `SnapshotEntry` (one instance per process group) is for host plugins; remote plugins use `Remote` or `Singleton`",
          ),
        );
      }
    }
    return out;
  },
};
