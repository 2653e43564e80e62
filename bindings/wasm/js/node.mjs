// Entry for Node's `import`: the same `web` glue as the browser entry, initialised
// synchronously from the .wasm file beside it.
import { readFileSync } from "node:fs";
import * as glue from "./wasm/switchboard_wasm.js";
import { createApi, SchemaError, SwitchboardError } from "./api.js";

glue.initSync({ module: readFileSync(new URL("./wasm/switchboard_wasm_bg.wasm", import.meta.url)) });

const api = createApi(glue);
export const {
  validate,
  validateJson,
  validateBytes,
  validateBatch,
  jsonSchema,
  schema,
  schemas,
  families,
  buildPaneSnapshot,
  buildPaneSummary,
  runPaneSmoke,
  sessions,
  taskBoards,
  decide,
  goGate,
  nextGate,
  fingerprint,
  verifyFingerprints,
  audit,
} = api;
export { SchemaError, SwitchboardError };
