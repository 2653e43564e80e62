// The package's own inflate (inflate.js of the packed tarball, from js/inflate.js: it unpacks
// the inlined wasm module in browsers), checked against Node's zlib and Zopfli, the deflater the
// package is built with: every block type in every order (stored blocks after Huffman blocks
// read ahead into the bit buffer), at random, and damaged input refused with an Error rather
// than wrong bytes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { deflateRawSync, constants } from "node:zlib";
import { deflateAsync } from "@gfx/zopfli";
import { pathToFileURL } from "node:url";
import { ROOT, scratchProject } from "./support.mjs";

const { inflate } = await import(pathToFileURL(join(scratchProject(), "node_modules/switchboard-protocol/inflate.js")).href);

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes that mix text (Huffman blocks), noise (stored blocks) and runs (long matches). */
function mixed(random, length) {
  const out = new Uint8Array(length);
  const words = ["switchboard", "checkpoint", "\"type\": ", "CONTRACT_FINAL", "{\"a\":[1,2,3]}", "\n"];
  for (let i = 0; i < length; ) {
    const kind = Math.floor(random() * 3);
    const span = Math.min(length - i, 1 + Math.floor(random() * 40000));
    for (let j = 0; j < span; j++, i++) {
      if (kind === 0) out[i] = Math.floor(random() * 256);
      else if (kind === 1) out[i] = words[(i >> 4) % words.length].charCodeAt(i % 11 % words[(i >> 4) % words.length].length);
      else out[i] = (i >> 9) & 0xff;
    }
  }
  return out;
}

test("inflate reads zlib's output at every level and strategy, stored blocks among Huffman blocks", () => {
  const random = generator(1);
  for (const length of [0, 1, 100, 70000, 300000]) {
    const input = mixed(random, length);
    for (const level of [0, 1, 6, 9]) {
      for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED, constants.Z_HUFFMAN_ONLY]) {
        const packed = deflateRawSync(input, { level, strategy });
        assert.deepEqual(inflate(packed, input.length), input, `length ${length}, level ${level}, strategy ${strategy}`);
      }
    }
  }
});

test("inflate reads Zopfli's output of both wasm modules of the package", async () => {
  for (const module of ["switchboard_wasm", "switchboard_validate"]) {
    const bytes = new Uint8Array(readFileSync(join(ROOT, "core/pkg/wasm", `${module}_bg.wasm`)));
    const packed = await deflateAsync(bytes, { numiterations: 1 });
    assert.deepEqual(inflate(packed, bytes.length), bytes, module);
  }
});

test("property: inflate gives back any input deflated by zlib or Zopfli", async () => {
  for (let seed = 1; seed <= 120; seed++) {
    const random = generator(seed);
    // Zopfli takes about a second per 100 KB: its inputs are kept smaller.
    const zopfli = seed % 4 === 0;
    const input = mixed(random, Math.floor(random() * (zopfli ? 20000 : 120000)));
    const packed = zopfli
      ? await deflateAsync(input, { numiterations: 1 })
      : deflateRawSync(input, { level: Math.floor(random() * 10), memLevel: 1 + Math.floor(random() * 9) });
    assert.deepEqual(inflate(packed, input.length), input, `seed ${seed}`);
  }
});

test("property: damaged input throws an Error or gives other bytes of the stated size, never hangs", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const random = generator(seed);
    const input = mixed(random, 1 + Math.floor(random() * 20000));
    const packed = deflateRawSync(input, { level: 6 });
    const damaged = packed.subarray(0, packed.length - Math.floor(random() * Math.min(8, packed.length)));
    damaged[Math.floor(random() * damaged.length)] ^= 1 << Math.floor(random() * 8);
    try {
      const out = inflate(damaged, input.length);
      assert.equal(out.length, input.length, `seed ${seed}`);
    } catch (e) {
      assert.ok(e instanceof Error && e.message.startsWith("inflate: "), `seed ${seed}: ${e}`);
    }
  }
});
