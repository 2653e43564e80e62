use super::dates::DEMO_NOW_MS;
use super::server::DemoServer;
use super::*;

#[test]
fn the_demo_is_deterministic_and_large() {
    let (a, b) = (DemoServer::new(), DemoServer::new());
    let inbox_a = a.rows("pair-lab", "BlueLake", false).unwrap();
    assert_eq!(inbox_a, b.rows("pair-lab", "BlueLake", false).unwrap());
    assert_eq!(a.projects().len(), 4);
    let rows = a.traffic("pair-lab", None).unwrap();
    assert!(rows.len() >= 200, "{}", rows.len());
}

#[test]
fn acknowledging_and_releasing_change_the_state_once() {
    let mut demo = DemoServer::new();
    let m = demo.message("pair-lab", 4).unwrap();
    assert!(
        demo.acknowledge("pair-lab", "GreenCastle", 4).is_err(),
        "not its inbox"
    );
    demo.acknowledge("pair-lab", "BlueLake", 4).unwrap();
    assert!(demo.acked("BlueLake").contains(&m.id));
    assert!(demo.release("pair-lab", "BlueLake", 2).is_err());
    assert!(demo.release("pair-lab", "AmberFox", 2).is_ok());
    assert!(demo.release("pair-lab", "AmberFox", 2).is_err());
}

#[test]
fn the_overseer_is_registered_by_its_first_message() {
    let mut demo = DemoServer::new();
    let names = |demo: &DemoServer| -> Vec<String> {
        demo.agents("pair-lab")
            .unwrap()
            .into_iter()
            .map(|a| a.name)
            .collect()
    };
    assert!(!names(&demo).contains(&"HumanOverseer".to_owned()));
    let draft = crate::api::Draft {
        sender: None,
        to: vec!["BlueLake".into()],
        subject: "Stop and review".into(),
        body_md: "Please pause merges.".into(),
        thread_id: None,
        importance: crate::api::Importance::High,
        ack_required: false,
    };
    let id = demo.send("pair-lab", draft.clone(), DEMO_NOW_MS).unwrap();
    assert_eq!(demo.message("pair-lab", id).unwrap().from, "HumanOverseer");
    demo.send("pair-lab", draft, DEMO_NOW_MS).unwrap();
    let after = names(&demo);
    assert_eq!(after.iter().filter(|n| *n == "HumanOverseer").count(), 1);
}

#[test]
fn replies_stay_in_the_thread_and_are_dated_now() {
    let mut demo = DemoServer::new();
    let now = DEMO_NOW_MS + 60_000;
    let id = demo
        .reply("pair-lab", "GreenCastle", 1, "Looks good", now)
        .unwrap();
    let m = demo.message("pair-lab", id).unwrap();
    assert_eq!(m.thread_id.as_deref(), Some("pair-000"));
    assert_eq!(m.to, ["BlueLake"]);
    assert!(m.subject.starts_with("Re: "));
    assert!(
        m.created_ts.starts_with("2026-11-12T09:01:00"),
        "{}",
        m.created_ts
    );
    assert!(demo.reply("pair-lab", "GreenCastle", 1, "  ", now).is_err());
}

#[test]
fn every_family_has_valid_and_broken_messages() {
    use std::collections::BTreeMap;
    use switchboard_core::protocol::{validate, Options};
    let generated = super::traffic::generate();
    let mut tally: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for m in &generated.messages {
        let row = serde_json::json!({"subject": m.subject, "body_md": m.body_md});
        let report = validate(&row, &Options::default());
        let family = report.family_name().unwrap_or("other");
        let entry = tally.entry(family).or_default();
        if report.valid {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    for family in ["pair", "agent-po", "droid", "pair-claude"] {
        let (valid, invalid) = tally.get(family).copied().unwrap_or_default();
        assert!(valid > 0 && invalid > 0, "{family}: {tally:?}");
    }
    // The everyday traffic ends before the curated scenarios start.
    let first_scenario = generated
        .messages
        .iter()
        .find(|m| m.thread_id.as_deref() == Some("pair-105"))
        .unwrap();
    let everyday = generated
        .messages
        .iter()
        .take_while(|m| m.id < first_scenario.id)
        .map(|m| m.created_ts.as_str())
        .max()
        .unwrap();
    assert!(everyday < first_scenario.created_ts.as_str());
    let times: Vec<&str> = generated
        .messages
        .iter()
        .skip_while(|m| m.id < first_scenario.id)
        .map(|m| m.created_ts.as_str())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "scenarios in time order"
    );
}

#[test]
fn scale_inboxes_are_synthesized_on_demand() {
    let rows = scale::scale_rows("Load10k", 10_000);
    let snap = switchboard_core::pane::build_snapshot_from_rows(
        &switchboard_core::pane::contract(),
        &rows,
        &[],
        &[],
        None,
        switchboard_core::pane::FilterMode::All,
        &[],
    )
    .unwrap();
    assert!(snap.parse_errors.is_empty(), "{:?}", snap.parse_errors);
    assert_eq!(snap.inbox.len(), 10_000);
    assert_eq!(snap.pending_ack_count, 1_000);
    assert_eq!(
        scale::scale_message("Load10k", 42).subject,
        "Load message 42"
    );
    assert_eq!(scale::scale_size("Load1k"), Some(1_000));
    assert_eq!(scale::scale_size("Nobody"), None);
}

#[test]
fn timestamps_sort_lexically_in_time_order() {
    use super::dates::timestamp;
    assert!(timestamp(59) < timestamp(60));
    assert!(timestamp(86_399) < timestamp(86_400));
    assert_eq!(&timestamp(0)[..19], "2026-11-10T00:00:00");
}
