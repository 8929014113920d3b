// Cold start of the npm peer exponential-backoff: import + first delay computation.
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { getSanitizedOptions } = require("exponential-backoff/dist/options");
const { DelayFactory } = require("exponential-backoff/dist/delay/delay.factory");
if (DelayFactory(getSanitizedOptions({ startingDelay: 1000 }), 3).delay !== 4000) process.exit(1);
