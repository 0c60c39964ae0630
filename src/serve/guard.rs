//! What every request passes before it reaches a handler: the `Host` header must
//! name this server (a page on another site that rebinds its name to 127.0.0.1 is
//! turned away), a request that changes anything must come from this server's own
//! page, and no request may take longer than [`REQUEST_TIME_LIMIT`].

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::routes::error;
use super::state::AppState;

/// The longest a request may take, reading its body included.
pub const REQUEST_TIME_LIMIT: Duration = Duration::from_secs(120);

/// Whether a `Host` value names this server: one of its own names, or, when it
/// listens beyond loopback, any address written as numbers with its port (a name
/// that some DNS turns into this address is what a rebinding attack needs, and
/// numbers are not a name).
fn names_this_server(state: &AppState, host: &str) -> bool {
    if state.hosts.iter().any(|known| known == host) {
        return true;
    }
    let Some(port) = state.hosts[0].rsplit(':').next() else { return false };
    let ip = host
        .strip_suffix(port)
        .and_then(|h| h.strip_suffix(':'))
        .map(|h| h.trim_start_matches('[').trim_end_matches(']'));
    state.beyond_loopback && ip.is_some_and(|ip| ip.parse::<std::net::IpAddr>().is_ok())
}

/// Checks `Host` (and `Origin` where the browser sends one), then runs the request
/// within the time limit and adds the headers that keep the page to itself.
pub async fn guard(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| names_this_server(&state, h)) {
        let message = format!(
            "this server answers only to http://{}/ (the request was for {})",
            state.hosts[0],
            host.unwrap_or("no host")
        );
        return error(StatusCode::MISDIRECTED_REQUEST, message);
    }
    // A browser names the page a request comes from; only this server's own page may
    // build or upload (no other site can make it work for them).
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let own = origin.to_str().ok().and_then(|o| o.strip_prefix("http://"));
        if !own.is_some_and(|o| names_this_server(&state, o)) {
            return error(
                StatusCode::FORBIDDEN,
                "requests from other sites are refused".into(),
            );
        }
    }
    let mut response = match tokio::time::timeout(REQUEST_TIME_LIMIT, next.run(request))
        .await
    {
        Ok(response) => response,
        Err(_) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {} s", REQUEST_TIME_LIMIT.as_secs()),
        ),
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; object-src 'none'; \
             frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response.into_response()
}
