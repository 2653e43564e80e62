//! HTTP for the client: `fetch` in the browser (cancelled when the view that started it is
//! cleaned up); in native builds (clippy, unit tests) every request fails as unreachable,
//! except in unit tests, where POSTs go to a scripted server ([`fake`]).

/// One HTTP failure, before diagnosis.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(super) enum HttpFailure {
    /// `fetch` rejected: unreachable, or blocked by CORS.
    Network,
    /// A non-2xx status.
    Status(u16),
}

#[cfg(target_arch = "wasm32")]
pub(super) use browser::{get, origin, post, reachable};
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) use native::fake;
#[cfg(not(target_arch = "wasm32"))]
pub(super) use native::{get, origin, post, reachable};

/// The browser side of HTTP: `fetch` through gloo-net, cancelled on reactive cleanup.
#[cfg(target_arch = "wasm32")]
mod browser {
    use super::HttpFailure;
    use gloo_net::http::Request;
    use leptos::prelude::on_cleanup;
    use send_wrapper::SendWrapper;
    use web_sys::{AbortController, RequestMode};

    /// A controller whose signal aborts the request when the current owner is cleaned up.
    fn controller() -> Option<web_sys::AbortSignal> {
        let controller = AbortController::new().ok()?;
        let signal = controller.signal();
        let controller = SendWrapper::new(controller);
        on_cleanup(move || controller.abort());
        Some(signal)
    }

    async fn send(
        builder: gloo_net::http::RequestBuilder,
        body: Option<&str>,
    ) -> Result<String, HttpFailure> {
        let signal = controller();
        let builder = builder.abort_signal(signal.as_ref());
        let request = match body {
            Some(body) => builder.body(body.to_string()),
            None => builder.build(),
        }
        .map_err(|_| HttpFailure::Network)?;
        let response = request.send().await.map_err(|_| HttpFailure::Network)?;
        if !response.ok() {
            return Err(HttpFailure::Status(response.status()));
        }
        response.text().await.map_err(|_| HttpFailure::Network)
    }

    /// POSTs JSON; returns the body text of a 2xx reply.
    pub async fn post(url: &str, bearer: Option<&str>, body: &str) -> Result<String, HttpFailure> {
        let mut builder = Request::post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(token) = bearer {
            builder = builder.header("authorization", &format!("Bearer {token}"));
        }
        send(builder, Some(body)).await
    }

    /// GETs a URL; returns the body text of a 2xx reply.
    pub async fn get(url: &str, bearer: Option<&str>) -> Result<String, HttpFailure> {
        let mut builder = Request::get(url);
        if let Some(token) = bearer {
            builder = builder.header("authorization", &format!("Bearer {token}"));
        }
        send(builder, None).await
    }

    /// Whether anything answers at `root` (an opaque `no-cors` request succeeds even when
    /// CORS would block a real one).
    pub async fn reachable(root: &str) -> bool {
        let builder = Request::get(&format!("{root}/health/liveness")).mode(RequestMode::NoCors);
        match builder.build() {
            Ok(request) => request.send().await.is_ok(),
            Err(_) => false,
        }
    }

    /// This console's origin (`window.location.origin`).
    pub fn origin() -> String {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
}

/// Native builds (clippy, unit tests) have no `fetch`: every request fails as unreachable,
/// except in unit tests, where POSTs go to a scripted server ([`fake`]).
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::HttpFailure;

    pub async fn post(
        _url: &str,
        _bearer: Option<&str>,
        _body: &str,
    ) -> Result<String, HttpFailure> {
        #[cfg(test)]
        return fake::post(_body);
        #[cfg(not(test))]
        Err(HttpFailure::Network)
    }

    pub async fn get(_: &str, _: Option<&str>) -> Result<String, HttpFailure> {
        Err(HttpFailure::Network)
    }
    pub async fn reachable(_: &str) -> bool {
        false
    }
    pub fn origin() -> String {
        String::new()
    }

    /// A scripted MCP server for unit tests: records every JSON-RPC body and answers with
    /// the script's reply text.
    #[cfg(test)]
    pub mod fake {
        use super::HttpFailure;
        use std::cell::RefCell;

        type Script = Box<dyn Fn(&serde_json::Value) -> String>;

        thread_local! {
            static SCRIPT: RefCell<Option<Script>> = RefCell::new(None);
            static SENT: RefCell<Vec<serde_json::Value>> = const { RefCell::new(Vec::new()) };
        }

        /// Answers every following request of this thread with `script(request)`.
        pub fn serve(script: impl Fn(&serde_json::Value) -> String + 'static) {
            SCRIPT.with(|s| *s.borrow_mut() = Some(Box::new(script)));
            SENT.with(|s| s.borrow_mut().clear());
        }

        /// The requests sent since [`serve`].
        pub fn sent() -> Vec<serde_json::Value> {
            SENT.with(|s| s.borrow().clone())
        }

        pub fn post(body: &str) -> Result<String, HttpFailure> {
            let request: serde_json::Value =
                serde_json::from_str(body).map_err(|_| HttpFailure::Status(400))?;
            SENT.with(|s| s.borrow_mut().push(request.clone()));
            SCRIPT
                .with(|s| s.borrow().as_ref().map(|script| script(&request)))
                .ok_or(HttpFailure::Network)
        }
    }
}
