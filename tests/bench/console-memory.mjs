// What the console benchmark reads from the page: when elements were first painted, and how
// much memory the page and its engine worker hold.

/**
 * Run in the page (page.evaluate or addInitScript): records in `window.__paint[i]` the
 * `performance.now()` of the frame that first paints an element matching `selectors[i]`
 * (found by a MutationObserver, then one requestAnimationFrame).
 */
export function paintObserver(selectors) {
  window.__paint = selectors.map(() => 0);
  const seen = new MutationObserver(() => {
    selectors.forEach((selector, i) => {
      if (window.__paint[i] === 0 && document.querySelector(selector)) {
        window.__paint[i] = -1;
        requestAnimationFrame(() => (window.__paint[i] = performance.now()));
      }
    });
    if (window.__paint.every((t) => t !== 0)) seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true });
}

/**
 * The memory of the page and of its dedicated worker (the console's engine), each as its V8
 * isolate reports it (CDP `Runtime.getHeapUsage`): `js`, the JS heap in use, and `wasm`, the
 * backing stores of its array buffers, which hold the wasm linear memory.
 */
export async function memoryOf(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const usage = (u) => ({ js: u.usedSize, wasm: u.backingStorageSize });
    const own = usage(await cdp.send("Runtime.getHeapUsage"));
    const worker = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      cdp.on("Target.attachedToTarget", ({ sessionId, targetInfo }) => {
        if (targetInfo.type !== "worker") return;
        cdp.on("Target.receivedMessageFromTarget", (event) => {
          if (event.sessionId !== sessionId) return;
          const reply = JSON.parse(event.message);
          if (reply.id === 1) {
            clearTimeout(timer);
            resolve(reply.result ? usage(reply.result) : null);
          }
        });
        cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: 1, method: "Runtime.getHeapUsage" }) });
      });
      cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    });
    return { page: own, worker };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
