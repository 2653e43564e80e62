"""Grows one agent's inbox in a real Agent Mail 0.2.1 SQLite database to `target` messages.

Usage: python bulk_insert.py DB RECIPIENT_NAME TARGET

Run with the server venv's python while the server is up (the server uses WAL mode). The
rows copy the shape of the rows a real `send_message` wrote: the newest message to
RECIPIENT is the template for project_id, sender_id, attachments and the recipient row
(kind 'to', read_ts/ack_ts NULL). New rows are dated one second apart, older than every
existing message, so the real sends stay the newest. The FTS trigger indexes them as usual.
Prints the number of rows inserted and the seconds taken.
"""
import sqlite3
import sys
import time
from datetime import datetime, timedelta

import agent_mail_db

db, recipient, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
started = time.monotonic()
con = sqlite3.connect(db, timeout=60)
(agent_id, project_id) = con.execute(
    "SELECT id, project_id FROM agents WHERE name = ?", (recipient,)
).fetchone()
template = con.execute(
    """SELECT m.project_id, m.sender_id, m.attachments, r.kind
       FROM messages m JOIN message_recipients r ON r.message_id = m.id
       WHERE r.agent_id = ? ORDER BY m.created_ts DESC LIMIT 1""",
    (agent_id,),
).fetchone()
if template is None:
    sys.exit(f"no message to {recipient} yet: send one through MCP first")
m_project, m_sender, m_attachments, kind = template
have = con.execute(
    "SELECT COUNT(*) FROM message_recipients WHERE agent_id = ?", (agent_id,)
).fetchone()[0]
oldest = agent_mail_db.oldest_created(con)
base = datetime.fromisoformat(str(oldest))
missing = max(0, target - have)
next_id = agent_mail_db.next_message_id(con)
importances = ["normal"] * 7 + ["high", "urgent", "low"]
messages, recipients = [], []
for i in range(missing):
    mid = next_id + i
    seq = have + i + 1
    created = (base - timedelta(seconds=i + 1)).strftime("%Y-%m-%d %H:%M:%S.%f")
    messages.append(
        (
            mid,
            m_project,
            m_sender,
            f"bench-{seq // 20}" if seq % 3 else None,
            f"Bench message {seq}: status of task {seq % 97}",
            f"Progress report **{seq}**. The build for task {seq % 97} is green; "
            f"please review the diff and acknowledge when read.\n\n- item one\n- item two\n",
            importances[seq % len(importances)],
            1 if seq % 10 == 0 else 0,
            created,
            m_attachments,
        )
    )
    recipients.append((mid, agent_id, kind, None, None))
agent_mail_db.insert(con, messages, recipients)
total = con.execute(
    "SELECT COUNT(*) FROM message_recipients WHERE agent_id = ?", (agent_id,)
).fetchone()[0]
con.close()
print(f"{missing} {total} {time.monotonic() - started:.1f}")
