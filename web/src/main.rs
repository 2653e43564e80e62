//! Entry point of the console: mounts the app, nothing else.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(switchboard_web::App);
}
