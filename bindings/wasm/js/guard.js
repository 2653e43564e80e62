// The guard for MCP clients: `guard(client, options)` wraps a client of the official MCP
// TypeScript SDK (`@modelcontextprotocol/sdk`'s `Client`, or anything with its `callTool`)
// connected to an Agent Mail server. Every `send_message` / `reply_message` body is read by the
// core before it leaves (an invalid protocol message is refused with its report, or sent with a
// warning by option; a secret is always refused), and `fetchInbox` returns each message with
// its verdict, the protocol message it carries and, for an invalid one, the protocol's error
// reply, ready to send. Everything else passes through to the client unchanged.
//
// `createGuard(api)` takes the object `createApi` (api.js) returns and gives `guard`; the
// package's index.d.ts documents both. Like api.js this file has no imports and only
// `export function|class` exports: scripts/npm-package.sh derives guard.cjs from it.

/** The tools whose bodies leave the agent. */
const OUTGOING = new Set(["send_message", "reply_message"]);

/** What a value is, for error messages. */
function kindOf(value) {
  return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

/** The first issues of a list as one line: `pointer: message (code); …; and N more`. */
function issueLine(issues) {
  const shown = issues
    .slice(0, 3)
    .map((i) => `${i.path === "" ? "(root)" : i.path}: ${i.message} (${i.code})`)
    .join("; ");
  return issues.length > 3 ? `${shown}; and ${issues.length - 3} more` : shown;
}

/**
 * Thrown by a guarded client instead of sending: `reason` is `invalid` (the body carries a
 * protocol message that is not valid) or `secret` (the subject or body holds a secret); the
 * message's `report` says where and why.
 */
export class GuardRefusal extends Error {
  constructor(tool, reason, report, issues) {
    const what = reason === "secret" ? "it holds a secret" : "it carries an invalid protocol message";
    const type = report.family ? ` (${report.family}${report.messageType ? `/${report.messageType}` : ""})` : "";
    super(`${tool} refused, nothing was sent: ${what}${type}: ${issueLine(issues)}`);
    this.name = "GuardRefusal";
    this.tool = tool;
    this.reason = reason;
    this.report = report;
  }

  /** The refusal as an MCP tool result (`isError`), for an agent loop that hands results to a model. */
  toToolResult() {
    const issues = this.report.issues.map((i) => `- ${i.path === "" ? "(root)" : i.path}: ${i.message} (${i.code}, ${i.severity})`);
    return { isError: true, content: [{ type: "text", text: [this.message, ...issues].join("\n") }] };
  }
}

/** A tool's payload: `structuredContent` (or the JSON of its first text), minus `{result: …}` layers. */
function payload(tool, result) {
  if (result === null || typeof result !== "object") throw new TypeError(`${tool}: the client returned ${kindOf(result)}, not a tool result`);
  if (result.isError) {
    const text = result.content?.find?.((c) => c.type === "text")?.text ?? JSON.stringify(result);
    throw Object.assign(new Error(`${tool}: the server refused: ${text}`), { result });
  }
  let value = result.structuredContent;
  if (value === undefined) {
    const text = result.content?.find?.((c) => c.type === "text")?.text;
    value = text === undefined ? null : JSON.parse(text);
  }
  while (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "result" in value) {
    value = value.result;
  }
  return value;
}

export function createGuard(api) {
  return function guard(client, options = {}) {
    if (client === null || typeof client !== "object" || typeof client.callTool !== "function") {
      throw new TypeError(`guard: expected an MCP client (with callTool), got ${kindOf(client)}`);
    }
    if (options === null || typeof options !== "object") throw new TypeError(`guard: options must be an object, got ${kindOf(options)}`);
    const { onInvalid = "refuse", onWarning = (w) => console.warn(`switchboard guard: ${w.message}`), lenient = false, sender, family } = options;
    if (onInvalid !== "refuse" && onInvalid !== "send") throw new TypeError(`guard: options.onInvalid must be "refuse" or "send", got ${JSON.stringify(onInvalid)}`);
    if (typeof onWarning !== "function") throw new TypeError("guard: options.onWarning must be a function");
    if (typeof lenient !== "boolean") throw new TypeError("guard: options.lenient must be a boolean");
    if (sender !== undefined && typeof sender !== "string") throw new TypeError("guard: options.sender must be a string");
    // An unknown family fails here, not at the first invalid message.
    if (family !== undefined && !api.families.some((f) => f.name === family)) {
      throw new TypeError(`guard: unknown options.family ${JSON.stringify(family)}`);
    }
    const readOptions = { lenient };

    /** Reads an outgoing body (and subject): throws the refusal, or returns the reading. */
    function check(tool, args) {
      if (args === null || typeof args !== "object") throw new TypeError(`${tool}: arguments must be an object, got ${kindOf(args)}`);
      if (typeof args.body_md !== "string") throw new TypeError(`${tool}: body_md must be a string, got ${kindOf(args.body_md)}`);
      const row = typeof args.subject === "string" ? { subject: args.subject, body_md: args.body_md } : { body_md: args.body_md };
      const reading = api.readMail(row, readOptions);
      const { report } = reading;
      const secrets = report.issues.filter((i) => i.code === "secret_in_message");
      if (secrets.length) throw new GuardRefusal(tool, "secret", report, secrets);
      if (reading.kind === "invalid") {
        const errors = report.issues.filter((i) => i.severity === "error");
        const refusal = new GuardRefusal(tool, "invalid", report, errors);
        if (onInvalid === "refuse") throw refusal;
        onWarning({ tool, message: `sent anyway (onInvalid: "send"): ${refusal.message.replace(/^.*?nothing was sent: /, "")}`, report });
      }
      return reading;
    }

    async function callTool(params, ...rest) {
      if (params !== null && typeof params === "object" && OUTGOING.has(params.name)) check(params.name, params.arguments);
      return client.callTool(params, ...rest);
    }

    async function call(name, args) {
      return payload(name, await callTool({ name, arguments: args }));
    }

    /** One inbox row with its verdict, its protocol message and, when invalid, the error reply. */
    function inspect(row, agent) {
      const { kind, report, message } = api.readMail(row, readOptions);
      let errorReply = null;
      if (kind === "invalid") {
        try {
          errorReply = api.errorReply(report, message ?? {}, { sender: sender ?? agent, family });
        } catch (err) {
          // Pair and Pair Claude define no error reply; a message whose family cannot be told has none.
          if (err?.code !== "no_error_reply") throw err;
        }
      }
      const key = report.valid && report.messageType ? `${report.family}/${report.messageType}` : null;
      return { row, kind, valid: kind === "message", key, report, message, errorReply };
    }

    async function fetchInbox(args) {
      if (args === null || typeof args !== "object") throw new TypeError(`fetchInbox: arguments must be an object, got ${kindOf(args)}`);
      // The guard reads every body.
      const rows = await call("fetch_inbox", { ...args, include_bodies: true });
      if (!Array.isArray(rows)) throw new TypeError(`fetch_inbox: expected a list of messages, got ${kindOf(rows)}`);
      return rows.map((row) => inspect(row, args.agent_name));
    }

    async function replyWithError(inboxMessage, args) {
      const reply = inboxMessage?.errorReply;
      if (!reply) throw new TypeError("replyWithError: the message has no error reply (it is valid, or its protocol defines none)");
      if (args === null || typeof args !== "object") throw new TypeError(`replyWithError: arguments must be an object, got ${kindOf(args)}`);
      const body = reply.family === "droid" ? reply.error_report : reply.error;
      return call("reply_message", { message_id: inboxMessage.row.id, ...args, body_md: JSON.stringify(body, null, 2) });
    }

    const methods = {
      callTool,
      sendMessage: (args) => call("send_message", args),
      replyMessage: (args) => call("reply_message", args),
      fetchInbox,
      replyWithError,
    };
    return new Proxy(client, {
      get(target, name) {
        if (Object.hasOwn(methods, name)) return methods[name];
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
}
