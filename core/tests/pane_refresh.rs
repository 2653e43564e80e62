//! Deciding whether a pane changed: the reference fingerprint stays as it is (and collides),
//! the refresh identity does not, and `PaneState::snapshot_if_changed` uses the identity.

use proptest::prelude::*;
use serde_json::json;
use switchboard_core::pane::{self, build_snapshot, FilterMode, PaneState, Snapshot};

fn build(contacts: &str, thread: Option<&str>) -> Snapshot {
    build_snapshot(
        &pane::contract(),
        "[]",
        "[]",
        contacts,
        thread,
        FilterMode::All,
        &[],
    )
    .expect("snapshot")
}

fn contact(to: &str, status: &str) -> serde_json::Value {
    json!({"to": to, "status": status, "reason": "r", "updated_ts": "t"})
}

/// One contact `A:approved,B`/`pending` and two contacts `A`/`approved`, `B`/`pending`.
fn colliding_contacts() -> (String, String) {
    (
        json!([contact("A:approved,B", "pending")]).to_string(),
        json!([contact("A", "approved"), contact("B", "pending")]).to_string(),
    )
}

#[test]
fn colliding_contacts_share_the_fingerprint_but_not_the_identity() {
    let (one, two) = colliding_contacts();
    let (a, b) = (build(&one, None), build(&two, None));
    assert_eq!(
        a.refresh_fingerprint,
        "filter=all;thread=-;inbox=;outbox=;contacts=A:approved,B:pending"
    );
    assert_eq!(a.refresh_fingerprint, b.refresh_fingerprint);
    assert_ne!(a, b);
    assert_ne!(a.refresh_identity(), b.refresh_identity());
    assert_eq!(
        a.refresh_identity().as_str(),
        r#"["all",null,[],[],[["A:approved,B","pending"]]]"#
    );
    assert_eq!(
        b.refresh_identity().as_str(),
        r#"["all",null,[],[],[["A","approved"],["B","pending"]]]"#
    );

    // The same through the incremental state.
    let state = |contacts: &str| {
        PaneState::new(
            pane::contract(),
            "[]",
            "[]",
            contacts,
            None,
            FilterMode::All,
            &[],
        )
        .expect("state")
        .snapshot()
        .expect("snapshot")
    };
    assert_ne!(
        state(&one).refresh_identity(),
        state(&two).refresh_identity()
    );
}

#[test]
fn no_thread_and_the_thread_dash_are_different_states() {
    let (none, dash) = (build("[]", None), build("[]", Some("-")));
    assert_eq!(none.refresh_fingerprint, dash.refresh_fingerprint);
    assert_ne!(none.refresh_identity(), dash.refresh_identity());
}

#[test]
fn snapshot_if_changed_reports_changes_the_fingerprint_misses() {
    let mut state = PaneState::new(
        pane::contract(),
        "[]",
        "[]",
        "[]",
        None,
        FilterMode::All,
        &[],
    )
    .expect("state");
    let first = state.snapshot_if_changed().expect("snapshot");
    let first = first.expect("the first call always returns the snapshot");
    assert_eq!(state.snapshot_if_changed(), Ok(None), "nothing changed");
    // Acknowledging an id that is in no row changes nothing.
    state.acknowledge(7);
    assert_eq!(state.snapshot_if_changed(), Ok(None));
    // Selecting the thread `-` keeps the fingerprint but is a change.
    state.set_view(Some("-"), FilterMode::All).expect("view");
    let dashed = state
        .snapshot_if_changed()
        .expect("snapshot")
        .expect("a change");
    assert_eq!(dashed.refresh_fingerprint, first.refresh_fingerprint);
    assert_eq!(dashed.active_thread.as_deref(), Some("-"));
    assert_eq!(state.snapshot_if_changed(), Ok(None));
    // A new row is a change.
    let row = r#"[{"id":7,"subject":"s","from":"A","created_ts":"t","importance":"n","ack_required":true}]"#;
    state.add_inbox(row).expect("row");
    let added = state
        .snapshot_if_changed()
        .expect("snapshot")
        .expect("a change");
    assert_eq!(added.inbox.len(), 1);
    assert!(added.inbox[0].acknowledged);
}

/// Strings made of the fingerprint's own separators, so raw joins collide often.
fn piece() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "A",
            "B",
            ":",
            ",",
            ";",
            "A:approved",
            "approved,B",
            "-",
            "x=y",
        ][..],
    )
    .prop_map(str::to_string)
}

fn contacts() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec((piece(), piece()), 0..3)
}

/// The fields the fingerprint and the identity cover, as plain data (the model).
type Fields = (
    FilterMode,
    Option<String>,
    Vec<(u64, bool)>,
    Vec<(u64, String)>,
    Vec<(String, String)>,
);

fn fields(s: &Snapshot) -> Fields {
    (
        s.thread_filter_mode,
        s.active_thread.clone(),
        s.inbox.iter().map(|m| (m.id, m.acknowledged)).collect(),
        s.outbox
            .iter()
            .map(|m| (m.id, m.delivery_status.clone()))
            .collect(),
        s.contacts
            .iter()
            .map(|c| (c.peer.clone(), c.status.clone()))
            .collect(),
    )
}

fn snapshot_of(contacts: &[(String, String)], thread: Option<&str>) -> Snapshot {
    let rows: Vec<_> = contacts.iter().map(|(to, st)| contact(to, st)).collect();
    build(&serde_json::Value::Array(rows).to_string(), thread)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Identities are equal exactly when the covered fields are; the fingerprint is a
    /// function of those fields (it only ever collides, never splits).
    #[test]
    fn identity_is_equal_exactly_when_the_fields_are(
        a in contacts(), b in contacts(),
        ta in prop::option::of(piece()), tb in prop::option::of(piece()),
    ) {
        let (x, y) = (snapshot_of(&a, ta.as_deref()), snapshot_of(&b, tb.as_deref()));
        let same = fields(&x) == fields(&y);
        prop_assert_eq!(x.refresh_identity() == y.refresh_identity(), same);
        if same {
            prop_assert_eq!(x.refresh_fingerprint, y.refresh_fingerprint);
        }
    }
}
