//! A Pair session whose names, evidence and audited files are hostile markup: every view
//! must show it as text.

use super::audits::audit_report;
use super::fixtures::HOSTILE_TESTS;
use super::plan::{a, t, Plan, BUILDER, PLANNER};
use switchboard_core::protocol::builders::pair::{
    build_complete, build_rejected, change_order, contract_draft, contract_final, pair_init,
    ChangeRequest, ContractArtifacts, DraftArtifacts, FailureMode,
};
use switchboard_core::protocol::registry::families::pair::Role;

/// The hostile session, added to `plan`.
pub fn hostile_session(plan: &mut Plan) {
    let (p, b) = (t(PLANNER), t(BUILDER));
    let thread = "pair-108";
    let draft = DraftArtifacts {
        safety_reasoning: a("tmp/pair_1767108000_\"><svg onload=window.__pwned=1>.md".into()),
        spec: a("tmp/pair_1767108000_<img src=x onerror=window.__pwned=1>.md".into()),
        tests: a(HOSTILE_TESTS.into()),
    };
    let contract = ContractArtifacts {
        spec: draft.spec.clone(),
        tests: draft.tests.clone(),
    };
    let task = t("Render <b>user</b> names <script>window.__pwned=1</script>");
    plan.pair(500, thread, &pair_init(&p, &b, &task, Role::Planner));
    plan.pair(495, thread, &contract_draft(&p, &b, &draft, None));
    plan.pair(490, thread, &contract_final(&p, &b, &contract, None));
    plan.pair(
        300,
        thread,
        &build_complete(
            &b,
            &p,
            &t("src/<iframe src=javascript:window.__pwned=1>.py"),
            &[],
            None,
        ),
    );
    plan.raw(
        295,
        0,
        PLANNER,
        BUILDER,
        format!("Audit report ({thread})"),
        audit_report(thread),
        thread,
    );
    plan.pair(
        290,
        thread,
        &build_rejected(
            &p,
            &b,
            &t("<b>Errors are swallowed</b>: handle them <img src=x onerror=window.__pwned=1>"),
        ),
    );
    plan.pair(
        45,
        thread,
        &change_order(
            &b,
            &p,
            &ChangeRequest {
                failure_mode: FailureMode::LogicImpossible,
                evidence: t("<img src=x onerror=window.__pwned=1> TypeError in <script>window.__pwned=1</script>"),
                attempted_fixes: vec![
                    t("<script>window.__pwned=1</script>"),
                    t("[retry](javascript:window.__pwned=1)"),
                ],
                requested_changes: t("Allow <iframe src=\"javascript:window.__pwned=1\"> in names"),
            },
        ),
    );
}
