#!/usr/bin/env node
// The package's command line (`npx attention-lab --help`); the work is in cli/main.js.
import { run } from '../cli/main.js';

process.exitCode = await run(process.argv.slice(2));
