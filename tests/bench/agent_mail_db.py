"""What the bench fillers share: where new rows go in a real Agent Mail 0.2.1 SQLite database.

The column lists are 0.2.1's schema, as its `send_message` writes them.
"""


def next_message_id(con):
    """The first free message id."""
    return con.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0] + 1


def oldest_created(con):
    """The creation time of the oldest message (new rows are dated before it)."""
    return con.execute("SELECT MIN(created_ts) FROM messages").fetchone()[0]


def insert(con, messages, recipients):
    """Inserts message rows `(id, project_id, sender_id, thread_id, subject, body_md,
    importance, ack_required, created_ts, attachments)` and recipient rows
    `(message_id, agent_id, kind, read_ts, ack_ts)` in one transaction."""
    with con:
        con.executemany(
            "INSERT INTO messages (id, project_id, sender_id, thread_id, subject, body_md, importance,"
            " ack_required, created_ts, attachments) VALUES (?,?,?,?,?,?,?,?,?,?)",
            messages,
        )
        con.executemany(
            "INSERT INTO message_recipients (message_id, agent_id, kind, read_ts, ack_ts) VALUES (?,?,?,?,?)",
            recipients,
        )
