// Entry for Node's `require`: the wasm-bindgen `nodejs` glue (CommonJS), which loads the same
// .wasm file synchronously, and the CommonJS build of the API layer.
"use strict";
const glue = require("./wasm/switchboard_wasm.cjs");
const { createApi, SchemaError, SwitchboardError } = require("./api.cjs");

module.exports = { ...createApi(glue), SchemaError, SwitchboardError };
