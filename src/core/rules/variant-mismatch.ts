import { arr, get, str } from "../guards.js";
import { defineRule } from "../rule.js";

const HOST_NAME = /^custom\.(jmx|python|pmi)\./;

/**
 * Something the other variant requires, or that breaks this one. The schema reports remote `type` and
 * `entity` (routed here by `x-rule`); the rest is checked below.
 */
export const rule = defineRule({
  meta: {
    id: "variant-mismatch",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["path", "suggestion"],
    nameData: ["value", "type", "entity", "name"],
    description:
      "Something the other variant requires or that breaks this one (type, entity, statetimeseries, property types).",
    messages: {
      // The schema's messages for a remote plugin's `type` and `entity` (schema.ts), for this variant.
      notAllowed: "`{{path}}` is {{value}}; allowed: {{allowed}} (remote plugin)",
      notAllowedNear:
        "`{{path}}` is {{value}}; allowed: {{allowed}}. Did you mean `{{suggestion}}`? (remote plugin)",
      statetimeseries: "`statetimeseries` is only supported by remote plugins",
      propertyType:
        "property type `{{type}}` is only supported by remote plugins; host types are STRING, BOOLEAN, INTEGER, FLOAT, PASSWORD",
      remoteActivation:
        "activation `Remote` is for remote plugins; host plugins use `Singleton` or `SnapshotEntry`",
      hostName:
        "entity `{{entity}}` makes this a remote plugin, but the name `{{name}}` is a host plugin name (remote names start with `custom.remote.`)",
      snapshotEntry:
        "activation `SnapshotEntry` (one instance per process group) is for host plugins; remote plugins use `Remote` or `Singleton`",
    },
  },
  check(context) {
    const fromSchema = context.ownSchemaFindings;
    for (const f of fromSchema)
      context.report({
        pointer: f.pointer,
        messageId: f.messageId === "notAllowedNear" ? "notAllowedNear" : "notAllowed",
        data: f.data,
        target: f.target,
      });
    const activation = str(get(context.member("source"), "activation"));
    if (context.variant === "host") {
      arr(context.member("metrics")).forEach((m, i) => {
        if (get(m, "statetimeseries") !== undefined)
          context.report({
            pointer: `/metrics/${i}/statetimeseries`,
            messageId: "statetimeseries",
            target: "key",
          });
      });
      for (const p of context.properties) {
        const type = str(get(p.value, "type"));
        const t = type?.toLowerCase();
        if (type !== undefined && (t === "textarea" || t === "dropdown"))
          context.report({ pointer: `${p.pointer}/type`, messageId: "propertyType", data: { type } });
      }
      if (activation === "Remote")
        context.report({ pointer: "/source/activation", messageId: "remoteActivation" });
      return;
    }
    const name = str(context.member("name"));
    const entity = str(context.member("entity"));
    // Once per location: a `CUSTOM_DEVICE_X` entity is already reported above by the schema.
    const entityReported = fromSchema.some((f) => f.pointer === "/entity");
    if (!entityReported && name !== undefined && HOST_NAME.test(name) && entity?.startsWith("CUSTOM_DEVICE"))
      context.report({ pointer: "/entity", messageId: "hostName", data: { entity, name } });
    if (activation === "SnapshotEntry")
      context.report({ pointer: "/source/activation", messageId: "snapshotEntry" });
  },
});
