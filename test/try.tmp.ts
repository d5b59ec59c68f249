import { readFileSync } from "node:fs";
import { migrate } from "../src/migrate/migrate.js";
import { plain } from "../src/migrate/notes.js";
const r = migrate(readFileSync(process.argv[2]!, "utf8"));
if (!r.converted) { console.log(r.reasons.map((x) => plain(x.text))); process.exit(0); }
for (const f of r.files) if (process.argv[3] === undefined || f.path.includes(process.argv[3])) console.log(`==> ${f.path}\n${f.content}`);
