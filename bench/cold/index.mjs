// Cold start of the whole package entry (every surface) + first delay().
import { createBackoff } from "../../pkg/dist/esm/index.js";
if (createBackoff({ base: 1000 }).delay(3) !== 4000) process.exit(1);
