#!/usr/bin/env node
// The package's bin: the committed, self-contained bundle of src/cli (scripts/bundle.mjs) runs when imported.
import "../dist-cli/plugin-review.mjs";
