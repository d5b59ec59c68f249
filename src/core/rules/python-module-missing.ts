import { defineRule } from "../rule.js";

/**
 * Dynatrace's Python SDK builds the extension from the module `python.runtime.module` names, a folder of the
 * project beside `extension/` (`dt-sdk assemble` refuses the extension when it is not there). Judged only when
 * the caller lists the extension's files (`DescriptorInput.files`); a module in a `src/` layout, a single
 * `<module>.py`, or a wheel already built into `extension/lib/` counts too.
 */
export const rule = defineRule({
  meta: {
    id: "python-module-missing",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    nameData: ["module"],
    description: "`python.runtime.module` names a module whose folder the repository does not hold.",
    messages: {
      missing:
        "`python.runtime.module` is `{{module}}`, but the project has no `{{folder}}` folder: Dynatrace's SDK cannot build the extension",
    },
  },
  check(context) {
    const pkg = context.package;
    const module = context.extension.module;
    if (!pkg?.paths || !module || !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(module.name)) return;
    const name = module.name.replace(/\./g, "/");
    const wheel = module.name.replace(/[-_.]+/g, "_").toLowerCase();
    const folders = [`${pkg.project}${name}/`, `${pkg.project}src/${name}/`];
    for (const path of pkg.paths) {
      if (folders.some((f) => path.startsWith(f)) || path === `${pkg.project}${name}.py`) return;
      const lib = path.startsWith(`${pkg.folder}lib/`) ? path.slice(pkg.folder.length + 4).toLowerCase() : "";
      if (lib.endsWith(".whl") && lib.replace(/[-_.]+/g, "_").startsWith(`${wheel}_`)) return;
    }
    context.report({
      pointer: module.pointer,
      messageId: "missing",
      data: { module: module.name, folder: folders[0]! },
    });
  },
});
