// Raw DEFLATE (RFC 1951) decompression, synchronous, for the wasm module the browser entries
// inline: base64 of the deflated module gzips to about its deflated size, where base64 of the
// module itself gzips a third larger (bindings/wasm/assemble.mjs). A canonical-Huffman decoder
// with 15-bit lookup tables (a few milliseconds for the modules here).
// tests/js/inflate.test.mjs checks it against node:zlib.

/** Length and distance bases and extra bits (RFC 1951, 3.2.5). */
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order of the code length code lengths in a dynamic block header. */
const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Codes up to this long are decoded by one table look-up; longer ones code bit by bit. */
const FAST_BITS = 10;

/**
 * A canonical Huffman code from its code lengths: a table indexed by the next FAST_BITS input
 * bits (lowest first) whose entries are the symbol times 16 plus its code's length (0: a longer
 * code), and for longer codes the number of codes per length and the symbols in code order.
 */
function huffman(lengths) {
  const counts = new Uint16Array(16);
  for (const length of lengths) counts[length]++;
  counts[0] = 0;
  const offsets = new Uint16Array(16);
  const next = new Uint16Array(16);
  for (let len = 1, code = 0; len < 16; len++) {
    offsets[len] = offsets[len - 1] + counts[len - 1];
    code = (code + counts[len - 1]) << 1;
    next[len] = code;
  }
  const symbols = new Uint16Array(lengths.length);
  const table = new Uint16Array(1 << FAST_BITS);
  for (let symbol = 0; symbol < lengths.length; symbol++) {
    const len = lengths[symbol];
    if (!len) continue;
    symbols[offsets[len]++] = symbol;
    let code = next[len]++;
    if (len > FAST_BITS) continue;
    // Codes are sent from their highest bit: the table is indexed by the code reversed.
    let reversed = 0;
    for (let k = 0; k < len; k++, code >>>= 1) reversed = (reversed << 1) | (code & 1);
    for (let i = reversed; i < 1 << FAST_BITS; i += 1 << len) table[i] = (symbol << 4) | len;
  }
  return { table, counts, symbols };
}

let fixed;
/** The fixed literal/length and distance codes (RFC 1951, 3.2.6). */
function fixedCodes() {
  if (!fixed) {
    const lengths = new Uint8Array(288);
    lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
    fixed = [huffman(lengths), huffman(new Uint8Array(30).fill(5))];
  }
  return fixed;
}

/** Inflates raw DEFLATE `data` whose output is `size` bytes long. */
export function inflate(data, size) {
  const out = new Uint8Array(size);
  let at = 0; // next input byte
  let held = 0; // bits not used yet, lowest first
  let count = 0; // how many
  let written = 0;

  const bits = (n) => {
    while (count < n) {
      if (at >= data.length) throw new Error("inflate: the data ends early");
      held |= data[at++] << count;
      count += 8;
    }
    const value = held & ((1 << n) - 1);
    held >>>= n;
    count -= n;
    return value;
  };

  const decode = ({ table, counts, symbols }) => {
    while (count < 15) {
      // Past the end, zeros: a code that needs them fails below.
      held |= (at < data.length ? data[at] : 0) << count;
      at++;
      count += 8;
    }
    const entry = table[held & ((1 << FAST_BITS) - 1)];
    let len = entry & 15;
    let symbol = entry >>> 4;
    if (len === 0) {
      // A long code, from its first bit: canonical codes of one length are consecutive.
      let code = 0;
      let first = 0;
      let index = 0;
      for (len = 1; len < 16; len++) {
        code |= (held >>> (len - 1)) & 1;
        const n = counts[len];
        if (code - first < n) break;
        index += n;
        first = (first + n) << 1;
        code <<= 1;
      }
      if (len === 16) throw new Error("inflate: an invalid Huffman code");
      symbol = symbols[index + code - first];
    }
    held >>>= len;
    count -= len;
    if (at - (count >>> 3) > data.length) throw new Error("inflate: the data ends early");
    return symbol;
  };

  const dynamicCodes = () => {
    const nlen = bits(5) + 257;
    const ndist = bits(5) + 1;
    const ncode = bits(4) + 4;
    const clens = new Uint8Array(19);
    for (let i = 0; i < ncode; i++) clens[CLEN_ORDER[i]] = bits(3);
    const clen = huffman(clens);
    const lengths = new Uint8Array(nlen + ndist);
    for (let i = 0; i < nlen + ndist; ) {
      const symbol = decode(clen);
      if (symbol < 16) {
        lengths[i++] = symbol;
        continue;
      }
      let repeat;
      let value = 0;
      if (symbol === 16) {
        if (i === 0) throw new Error("inflate: a repeat with no previous length");
        value = lengths[i - 1];
        repeat = 3 + bits(2);
      } else repeat = symbol === 17 ? 3 + bits(3) : 11 + bits(7);
      if (i + repeat > nlen + ndist) throw new Error("inflate: too many code lengths");
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
    return [huffman(lengths.subarray(0, nlen)), huffman(lengths.subarray(nlen))];
  };

  let last;
  do {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      // Stored: byte-aligned, its length and the length's complement, then the bytes. The rest
      // of the current byte is skipped; whole bytes `decode` read ahead go back to the input.
      at -= count >>> 3;
      held = 0;
      count = 0;
      const length = data[at] | (data[at + 1] << 8);
      if ((length ^ 0xffff) !== (data[at + 2] | (data[at + 3] << 8))) throw new Error("inflate: a stored block's length does not match");
      at += 4;
      if (at + length > data.length || written + length > size) throw new Error("inflate: a stored block overruns");
      out.set(data.subarray(at, at + length), written);
      at += length;
      written += length;
      continue;
    }
    if (type === 3) throw new Error("inflate: an invalid block type");
    const [literals, distances] = type === 1 ? fixedCodes() : dynamicCodes();
    for (;;) {
      const symbol = decode(literals);
      if (symbol < 256) {
        if (written >= size) throw new Error("inflate: the output is longer than expected");
        out[written++] = symbol;
      } else if (symbol === 256) break;
      else {
        const l = symbol - 257;
        if (l >= 29) throw new Error("inflate: an invalid length code");
        const length = LENGTH_BASE[l] + bits(LENGTH_EXTRA[l]);
        const d = decode(distances);
        if (d >= 30) throw new Error("inflate: an invalid distance code");
        const distance = DIST_BASE[d] + bits(DIST_EXTRA[d]);
        if (distance > written || written + length > size) throw new Error("inflate: a back reference overruns");
        const from = written - distance;
        const end = written + length;
        if (length < 32) {
          // Byte by byte: an overlapping reference repeats the bytes it has just written.
          for (let k = 0; k < length; k++) out[written + k] = out[from + k];
          written = end;
        } else {
          // [from, written) repeats with period `distance`: copy it, doubling each round.
          while (written < end) {
            const n = Math.min(written - from, end - written);
            out.copyWithin(written, from, from + n);
            written += n;
          }
        }
      }
    }
  } while (!last);
  if (written !== size) throw new Error(`inflate: ${written} bytes, expected ${size}`);
  return out;
}
