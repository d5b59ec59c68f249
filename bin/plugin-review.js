#!/usr/bin/env node
// The committed, self-contained bundle of src/cli (scripts/bundle.mjs): no build needed to run it.
import { main } from "../dist-cli/plugin-review.mjs";

process.exitCode = await main(process.argv.slice(2));
