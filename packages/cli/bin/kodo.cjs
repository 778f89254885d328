#!/usr/bin/env node
// The `kodo` command. A committed stub, so npm can link it before the bundle is built.
require('../dist/kodo.cjs');
