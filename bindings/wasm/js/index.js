// Entry for browsers and bundlers (ESM): the wasm-bindgen `web` glue, initialised with top-level
// await from the .wasm beside it (bundlers see the `new URL(..., import.meta.url)` asset).
import init, * as glue from "./wasm/switchboard_wasm.js";
import { createApi, SchemaError, SwitchboardError } from "./api.js";

await init({ module_or_path: new URL("./wasm/switchboard_wasm_bg.wasm", import.meta.url) });

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
