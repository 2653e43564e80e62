"""Fills a project of a real Agent Mail 0.2.1 SQLite database with Pair Protocol traffic.

Usage: python bulk_pair.py DB PROJECT_SLUG TARGET

The project's agents are paired in order (1st planner with 2nd builder, 3rd with 4th, ...);
sessions go round the pairs. Each session is a thread of messages as agents send them over
Agent Mail (subject = the message type, body_md = the body's JSON): PAIR_INIT,
CONTRACT_DRAFT, CONTRACT_FINAL, BUILD_COMPLETE, then SESSION_COMPLETE for most; of each
pair's sessions every tenth stops at the implementation review and every twentieth is a
CHANGE_ORDER waiting for review (so every pair has open checkpoints, as a reviewer's projects
do, whichever mailboxes a reader takes first). Rows copy the shape of a real send in the project (attachments, recipient kind
'to'), one second apart and older than every existing message. Inserts until the project
holds TARGET messages; prints the number inserted, the sessions and the seconds taken.
"""
import json
import sqlite3
import sys
import time
from datetime import datetime, timedelta

import agent_mail_db

db, slug, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
started = time.monotonic()
con = sqlite3.connect(db, timeout=60)
(project_id,) = con.execute("SELECT id FROM projects WHERE slug = ?", (slug,)).fetchone()
agents = con.execute(
    "SELECT id, name FROM agents WHERE project_id = ? ORDER BY id", (project_id,)
).fetchall()
pairs = [(agents[i], agents[i + 1]) for i in range(0, len(agents) - 1, 2)]
if not pairs:
    sys.exit("the project needs at least two agents")
(attachments,) = con.execute(
    "SELECT attachments FROM messages WHERE project_id = ? LIMIT 1", (project_id,)
).fetchone()
have = con.execute(
    "SELECT COUNT(*) FROM messages WHERE project_id = ?", (project_id,)
).fetchone()[0]
oldest = agent_mail_db.oldest_created(con)
clock = datetime.fromisoformat(str(oldest)) - timedelta(seconds=target + 10)
next_id = agent_mail_db.next_message_id(con)


def session(n, k):
    """Session `n` of the project, the `k`-th of its pair."""
    stamp = 1767300000 + n
    art = lambda name: f"tmp/pair_{stamp}_{name}"
    steps = [
        ("PAIR_INIT", 0, {"protocol_version": "3.1", "task": f"Bench task {n}", "my_role": "PLANNER",
                          "your_role": "BUILDER", "status": "INITIALIZED"}),
        ("CONTRACT_DRAFT", 0, {"phase": "CONTRACT_GENERATION", "status": "AWAITING_HUMAN_REVIEW",
                               "artifacts": {"safety_reasoning": art("safety.md"), "spec": art("spec_draft.md"),
                                             "tests": art("tests.py")}}),
        ("CONTRACT_FINAL", 0, {"phase": "CONTRACT_FINALIZED", "artifacts": {"spec": art("spec_final.md"),
                               "tests": art("tests.py")}, "contract_immutable": True, "status": "READY_FOR_BUILD"}),
    ]
    if k % 20 == 7:
        steps.append(("CHANGE_ORDER", 1, {"phase": "BUILD_BLOCKED", "status": "AWAITING_MEDIATION",
                                          "change_order": {"status": "CHANGE_ORDER_REQUIRED",
                                                           "failure_mode": "dependency_missing",
                                                           "evidence": f"ImportError in bench task {n}",
                                                           "attempted_fixes": ["vendored it"],
                                                           "requested_changes": "allow the dependency"}}))
        return steps
    steps.append(("BUILD_COMPLETE", 1, {"phase": "BUILD_COMPLETE", "test_results": "ALL_PASS",
                                        "implementation_files": [f"src/task_{n}.py"], "status": "READY_FOR_REVIEW"}))
    if k % 10 != 3:
        steps.append(("SESSION_COMPLETE", 0, {"phase": "MERGED", "status": "SUCCESS", "message": "Merged."}))
    return steps


messages, recipients = [], []
n = 0
while have + len(messages) < target:
    (planner, builder) = pairs[n % len(pairs)]
    for kind, by_builder, body in session(n, n // len(pairs)):
        if have + len(messages) >= target:
            break
        sender, recipient = (builder, planner) if by_builder else (planner, builder)
        mid = next_id + len(messages)
        clock += timedelta(seconds=1)
        messages.append((mid, project_id, sender[0], f"bench-pair-{n}", kind, json.dumps(body),
                         "normal", 0, clock.strftime("%Y-%m-%d %H:%M:%S.%f"), attachments))
        recipients.append((mid, recipient[0], "to", None, None))
    n += 1
agent_mail_db.insert(con, messages, recipients)
con.close()
print(f"{len(messages)} {n} {time.monotonic() - started:.1f}")
