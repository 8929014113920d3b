// Cold start of the hand-written baseline: import + first delay().
import { handBackoff } from "../baseline.mjs";
if (handBackoff({ base: 1000 }).delay(3) !== 4000) process.exit(1);
