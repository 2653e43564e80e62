// The guard for MCP clients, in Node, with the real MCP TypeScript SDK (`@modelcontextprotocol/sdk`,
// Client over Streamable HTTP) connected to a real Agent Mail 0.2.1 server, and the package from
// its packed tarball: what the guard lets through arrives, what it refuses never reaches the
// server, and an inbox comes back read, with error replies that validate and can be sent.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startAgentMail } from "../../../../tests/support/agent-mail.mjs";
import { ROOT, TASK_FIELDS, loadPackage, scratchProject } from "./support.mjs";

let sb;
let server;
let client;
let project_key;
const SENDER = "BlueLake";
const RECEIVER = "GreenCastle";

/** What the receiver's inbox holds on the server, read around the guard. */
async function serverInbox(agent = RECEIVER) {
  return server.tool("fetch_inbox", { project_key, agent_name: agent, include_bodies: true, limit: 100 });
}

/** A task assignment from the sender, valid, with a subject naming it. */
function task(fields = {}) {
  return sb.build("droid/task_assignment", { ...TASK_FIELDS, ...fields }, { sender: SENDER });
}

before(async () => {
  sb = await loadPackage();
  server = await startAgentMail();
  const project = await server.tool("ensure_project", { human_key: `${server.dir}/repo` });
  project_key = project.human_key;
  for (const name of [SENDER, RECEIVER]) {
    await server.tool("register_agent", { project_key, program: "node", model: "test", name, task_description: name });
  }
  client = new Client({ name: "switchboard-guard-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
});

after(async () => {
  await client?.close();
  await server?.stop();
});

test("a valid message goes through the guard and arrives", async () => {
  const mail = sb.guard(client);
  const message = task({ task_id: "bd-101" });
  await mail.sendMessage({ project_key, sender_name: SENDER, to: [RECEIVER], subject: "task bd-101", body_md: JSON.stringify(message) });
  const arrived = (await serverInbox()).find((row) => row.subject === "task bd-101");
  assert.ok(arrived, "the message is in the receiver's inbox");
  assert.deepEqual(JSON.parse(arrived.body_md), message);
  // The other tools pass through the guard to the client.
  const tools = await mail.listTools();
  assert.ok(tools.tools.some((t) => t.name === "fetch_inbox"));
});

test("an invalid message is refused with its report and never reaches the server", async () => {
  const mail = sb.guard(client);
  const before = (await serverInbox()).length;
  const invalid = { ...task({ task_id: "bd-102" }), priority: "whenever" };
  const args = { project_key, sender_name: SENDER, to: [RECEIVER], subject: "task bd-102", body_md: JSON.stringify(invalid) };
  for (const send of [() => mail.sendMessage(args), () => mail.callTool({ name: "send_message", arguments: args })]) {
    await assert.rejects(send, (err) => {
      assert.ok(err instanceof sb.GuardRefusal, String(err));
      assert.equal(err.tool, "send_message");
      assert.equal(err.reason, "invalid");
      assert.equal(err.report.valid, false);
      assert.deepEqual(
        err.report.issues.map((i) => [i.path, i.code]),
        [["/priority", "not_in_enum"]],
      );
      assert.match(err.message, /send_message refused, nothing was sent: .*droid\/task_assignment.*\/priority/);
      const result = err.toToolResult();
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /\/priority: .*not_in_enum/);
      return true;
    });
  }
  // A reply is checked the same way.
  const original = (await serverInbox())[0];
  await assert.rejects(
    () => mail.replyMessage({ project_key, message_id: original.id, sender_name: RECEIVER, body_md: JSON.stringify(invalid) }),
    (err) => err instanceof sb.GuardRefusal && err.tool === "reply_message",
  );
  assert.equal((await serverInbox()).length, before, "nothing new in the receiver's inbox");
  assert.equal((await serverInbox(SENDER)).length, 0, "no reply reached the sender");
});

test("a secret is refused even when invalid messages may be sent; plain mail passes", async () => {
  const warnings = [];
  const mail = sb.guard(client, { onInvalid: "send", onWarning: (w) => warnings.push(w) });
  const before = (await serverInbox()).length;
  const leaky = { project_key, sender_name: SENDER, to: [RECEIVER], subject: "creds", body_md: "use AKIAIOSFODNN7EXAMPLE for the bucket" };
  await assert.rejects(
    () => mail.sendMessage(leaky),
    (err) => {
      assert.ok(err instanceof sb.GuardRefusal);
      assert.equal(err.reason, "secret");
      assert.deepEqual(err.report.issues.filter((i) => i.code === "secret_in_message").map((i) => i.path), ["/body_md"]);
      assert.doesNotMatch(err.message, /AKIAIOSFODNN7EXAMPLE/, "the refusal does not repeat the secret");
      return true;
    },
  );
  await assert.rejects(() => mail.sendMessage({ ...leaky, subject: "key AKIAIOSFODNN7EXAMPLE", body_md: "see subject" }), /holds a secret/);
  assert.equal((await serverInbox()).length, before);
  await mail.sendMessage({ project_key, sender_name: SENDER, to: [RECEIVER], subject: "lunch", body_md: "Lunch at noon?" });
  assert.ok((await serverInbox()).some((row) => row.subject === "lunch"));
  assert.deepEqual(warnings, []);
});

test("with onInvalid: send, an invalid message is sent with a warning", async () => {
  const warnings = [];
  const mail = sb.guard(client, { onInvalid: "send", onWarning: (w) => warnings.push(w) });
  const invalid = { ...task({ task_id: "bd-103" }), priority_value: 9 };
  await mail.sendMessage({ project_key, sender_name: SENDER, to: [RECEIVER], subject: "task bd-103", body_md: JSON.stringify(invalid) });
  assert.ok((await serverInbox()).some((row) => row.subject === "task bd-103"));
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].tool, "send_message");
  assert.deepEqual(warnings[0].report.issues.map((i) => i.path), ["/priority_value"]);
  assert.match(warnings[0].message, /sent anyway/);
});

test("fetchInbox gives each message's verdict, the parsed message and an error reply that validates", async () => {
  const valid = task({ task_id: "bd-104" });
  const invalid = task({ task_id: "bd-105" });
  delete invalid.description;
  // Sent around the guard, as another agent without one would.
  const sent = [
    ["task bd-104", JSON.stringify(valid)],
    ["task bd-105", `Here it is:\n\n\`\`\`json\n${JSON.stringify(invalid)}\n\`\`\`\n`],
    ["notes", "Remember the stand-up."],
  ];
  for (const [subject, body_md] of sent) {
    await server.tool("send_message", { project_key, sender_name: SENDER, to: [RECEIVER], subject, body_md });
  }
  const mail = sb.guard(client);
  const inbox = await mail.fetchInbox({ project_key, agent_name: RECEIVER, limit: 100 });
  const bySubject = (subject) => inbox.find((m) => m.row.subject === subject);

  const good = bySubject("task bd-104");
  assert.equal(good.kind, "message");
  assert.equal(good.valid, true);
  assert.equal(good.key, "droid/task_assignment");
  assert.deepEqual(good.message, valid);
  assert.equal(good.errorReply, null);
  assert.deepEqual(good.report, sb.validate(valid));

  const bad = bySubject("task bd-105");
  assert.equal(bad.kind, "invalid");
  assert.equal(bad.valid, false);
  assert.equal(bad.key, null);
  assert.deepEqual(bad.message, invalid, "the carried message, parsed from its fenced block");
  assert.deepEqual(bad.report, sb.validate(invalid), "the same verdict and paths as validating the message itself");
  assert.deepEqual(bad.report.issues.map((i) => [i.path, i.code]), [["/description", "missing_field"]]);
  const reply = bad.errorReply;
  assert.equal(reply.family, "droid");
  assert.equal(reply.reject.message_id, invalid.message_id);
  assert.equal(sb.validate(reply.error_report).valid, true, "the error reply validates");
  assert.equal(reply.error_report.sender_id, RECEIVER);
  assert.equal(reply.error_report.error.context.original_message_id, invalid.message_id);

  const plain = bySubject("notes");
  assert.equal(plain.kind, "plain");
  assert.equal(plain.message, null);
  assert.equal(plain.errorReply, null);

  // The error reply goes back through the guard and arrives as a valid error_report.
  await mail.replyWithError(bad, { project_key, sender_name: RECEIVER });
  const back = (await mail.fetchInbox({ project_key, agent_name: SENDER })).find((m) => m.row.subject.startsWith("Re: task bd-105"));
  assert.ok(back, "the error reply is in the sender's inbox");
  assert.equal(back.key, "droid/error_report");
  assert.deepEqual(back.message, reply.error_report);
});

test("the guard is typed for the real SDK client under tsc --strict", () => {
  const dir = mkdtempSync(join(scratchProject(), "guard-types-"));
  // The SDK (a development dependency of the repository), visible to the scratch project.
  const modules = join(scratchProject(), "node_modules/@modelcontextprotocol");
  if (!existsSync(modules)) {
    mkdirSync(join(modules, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules/@modelcontextprotocol"), modules);
  }
  writeFileSync(
    join(dir, "agent.mts"),
    `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { guard, GuardRefusal, type InboxMessage } from "switchboard-protocol";
import { readMail, type MailReading } from "switchboard-protocol/validate";

const client = new Client({ name: "agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8765/mcp/")));
const mail = guard(client, { onInvalid: "refuse", sender: "GreenCastle" });
const inbox: InboxMessage[] = await mail.fetchInbox({ project_key: "/p", agent_name: "GreenCastle" });
for (const m of inbox) {
  if (m.errorReply) await mail.replyWithError(m, { project_key: "/p", sender_name: "GreenCastle" });
  else if (m.key === "droid/task_assignment") console.log(m.report.valid);
}
try {
  await mail.sendMessage({ project_key: "/p", sender_name: "GreenCastle", to: ["BlueLake"], subject: "s", body_md: "{}" });
} catch (err) {
  if (err instanceof GuardRefusal) console.log(err.report.issues[0]?.path, err.toToolResult().isError);
}
const tools = await mail.listTools();
const reading: MailReading = readMail(inbox[0]?.row ?? {});
console.log(tools.tools.length, reading.kind === inbox[0]?.kind);
`,
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: [], noEmit: true, skipLibCheck: true },
      files: ["agent.mts"],
    }),
  );
  try {
    execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", dir], { cwd: dir, encoding: "utf8" });
  } catch (err) {
    assert.fail(`the guard does not type-check with the SDK:\n${err.stdout}${err.stderr}`.slice(0, 4000));
  }
});
