//! The committed `js/types.d.ts` is exactly what the registry generates today. With
//! `SWITCHBOARD_BLESS=1` the test rewrites the file instead (after a registry change).

use std::path::Path;

#[test]
fn committed_declarations_are_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/types.d.ts");
    let generated = switchboard_wasm::typescript::declarations();
    if std::env::var_os("SWITCHBOARD_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run SWITCHBOARD_BLESS=1 cargo test -p switchboard-wasm --test typescript",
        path.display()
    );
}
