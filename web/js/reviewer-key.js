// The reviewer's signing key: a WebCrypto Ed25519 key pair made once per browser profile, its
// private half not extractable, kept in IndexedDB (a CryptoKey is stored as itself, so the
// private key never leaves the browser's key store). The page signs review records with it;
// the public half goes into each record (raw, 32 bytes).
const DB = "switchboard-reviewer";
const STORE = "keys";
const ID = "ed25519";

function done(request) {
  return new Promise((ok, fail) => {
    request.onsuccess = () => ok(request.result);
    request.onerror = () => fail(request.error);
  });
}

async function keyPair() {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await done(open);
  try {
    let keys = await done(db.transaction(STORE).objectStore(STORE).get(ID));
    if (!keys) {
      keys = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
      await done(db.transaction(STORE, "readwrite").objectStore(STORE).put(keys, ID));
    }
    return keys;
  } finally {
    db.close();
  }
}

/** The public key, raw (32 bytes). */
export async function reviewerPublicKey() {
  const keys = await keyPair();
  return new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
}

/** The Ed25519 signature of `bytes` (64 bytes). */
export async function reviewerSign(bytes) {
  const keys = await keyPair();
  return new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, keys.privateKey, bytes));
}
