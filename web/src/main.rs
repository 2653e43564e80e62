//! Entry point of the console: mounts the app (over the engine worker), nothing else.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| leptos::view! { <switchboard_web::App /> });
}
