//! The curated Pair sessions: one waiting at each human checkpoint, a tampered contract
//! caught by its audit, a merged and an aborted session, one building against its deadline.

use super::audits::audit_report;
use super::fixtures::{prints, reset_tests_tampered, RATE_TESTS, RESET_TESTS};
use super::plan::{a, t, Plan, BUILDER, PLANNER};
use switchboard_core::protocol::builders::pair::{
    build_complete, change_order, change_order_accepted, contract_draft, pair_init, session_abort,
    session_complete, ChangeRequest, ContractArtifacts, DraftArtifacts, FailureMode,
};
use switchboard_core::protocol::registry::families::pair::{Phase, Role};

/// The curated Pair sessions, added to `plan`.
pub fn pair_sessions(plan: &mut Plan) {
    let (p, b) = (t(PLANNER), t(BUILDER));
    // #1: a draft under review.
    let draft = DraftArtifacts {
        safety_reasoning: a("tmp/pair_1767101000_safety_reasoning.md".into()),
        spec: a("tmp/pair_1767101000_spec_draft.md".into()),
        tests: a("tmp/pair_1767101000_tests.py".into()),
    };
    plan.pair(
        600,
        "pair-101",
        &pair_init(&p, &b, &t("Export invoices as CSV"), Role::Planner),
    );
    plan.pair(590, "pair-101", &contract_draft(&p, &b, &draft, None));

    // #2: built, contract intact, audit passed.
    let rate_tests = "tmp/pair_1767102000_tests.py";
    let rate = prints(rate_tests, RATE_TESTS);
    plan.contracted(
        880,
        "pair-102",
        1_767_102_000,
        "Rate-limit the login endpoint",
        rate.as_ref(),
    );
    plan.pair(
        130,
        "pair-102",
        &build_complete(&b, &p, &t("ratelimit.py"), &[], rate.as_ref()),
    );
    plan.raw(
        125,
        0,
        PLANNER,
        BUILDER,
        "Audit report (pair-102)".into(),
        audit_report("pair-102"),
        "pair-102",
    );

    // #3: a change order asking for a dependency.
    plan.contracted(
        700,
        "pair-103",
        1_767_103_000,
        "Sign session cookies with JWT",
        None,
    );
    plan.pair(
        60,
        "pair-103",
        &change_order(
            &b,
            &p,
            &ChangeRequest {
                failure_mode: FailureMode::DependencyMissing,
                evidence: t("ModuleNotFoundError: No module named 'jwt' (tests/test_session.py::test_cookie_is_signed)"),
                attempted_fixes: vec![
                    t("Signed with hmac from the standard library: the contract's tests call jwt.decode"),
                    t("Vendored a minimal JWT decoder: refused by the contract's dependency rules"),
                ],
                requested_changes: t("Allow the pyjwt dependency (>= 2.8), or change the tests to verify with hmac"),
            },
        ),
    );

    // Tampered: the builder edited a contract test (its fingerprint changed) and the audit
    // caught it.
    let reset_tests = "tmp/pair_1767104000_tests.py";
    let tampered = reset_tests_tampered();
    plan.contracted(
        820,
        "pair-104",
        1_767_104_000,
        "Add password reset by email",
        prints(reset_tests, RESET_TESTS).as_ref(),
    );
    plan.pair(
        95,
        "pair-104",
        &build_complete(
            &b,
            &p,
            &t("reset.py"),
            &[],
            prints(reset_tests, &tampered).as_ref(),
        ),
    );
    plan.raw(
        90,
        0,
        PLANNER,
        BUILDER,
        "Audit report (pair-104)".into(),
        audit_report("pair-104"),
        "pair-104",
    );

    // Merged, after an accepted change order.
    let contract = plan.contracted(
        1200,
        "pair-105",
        1_767_105_000,
        "Paginate the audit log API",
        None,
    );
    let flaky = ChangeRequest {
        failure_mode: FailureMode::TestFlakiness,
        evidence: t(
            "test_page_order fails 1 run in 20: rows with equal timestamps come back in any order",
        ),
        attempted_fixes: vec![t("Sorted by timestamp in the query")],
        requested_changes: t("Order pages by (timestamp, id) in the spec and the test"),
    };
    plan.pair(1100, "pair-105", &change_order(&b, &p, &flaky));
    let revised = ContractArtifacts {
        spec: contract.spec.next_version(),
        tests: contract.tests.next_version(),
    };
    plan.pair(
        1090,
        "pair-105",
        &change_order_accepted(
            &p,
            &b,
            &revised,
            &t("The order was underspecified; ties break by id."),
            None,
        ),
    );
    plan.pair(
        1000,
        "pair-105",
        &build_complete(
            &b,
            &p,
            &t("api/audit_log.py"),
            &[t("api/pagination.py")],
            None,
        ),
    );
    // The automated audit before the merge (Pattern 1, step 9): nothing found.
    plan.raw(
        995,
        0,
        PLANNER,
        BUILDER,
        "Audit report (pair-105)".into(),
        serde_json::json!({"status": "PASS", "severity": "MINOR", "scheming_detected": false,
            "issues": [], "notes": ["tests untouched; ordering fixed in the query, no new dependency"]})
        .to_string(),
        "pair-105",
    );
    plan.pair(
        990,
        "pair-105",
        &session_complete(
            &p,
            &b,
            &t("Implementation approved at human review and merged."),
        ),
    );

    // Aborted at change-order review.
    plan.contracted(
        1150,
        "pair-106",
        1_767_106_000,
        "Cache the pricing table",
        None,
    );
    let impossible = ChangeRequest {
        failure_mode: FailureMode::LogicImpossible,
        evidence: t("test_prices_are_live requires no cache and test_cache_hits requires one"),
        attempted_fixes: Vec::new(),
        requested_changes: t("Drop one of the two tests"),
    };
    plan.pair(1050, "pair-106", &change_order(&b, &p, &impossible));
    plan.pair(
        1040,
        "pair-106",
        &session_abort(
            &p,
            &b,
            Phase::BuildBlocked,
            &t("The pricing team withdrew the task"),
        ),
    );

    // Building: the builder's 30 minutes run.
    plan.contracted(
        20,
        "pair-107",
        1_767_107_000,
        "Add a health check endpoint",
        None,
    );
}
