//! Shared helpers of the workspace's end-to-end tests (in `tests/tests/it/`): raw socket servers
//! for the faults no correct HTTP server produces (a reset mid-body, a wrong Content-Length, a
//! server that never answers), with every request they receive recorded. The benchmark
//! (`benches/ratios.rs`) uses its workloads and requests too.

#![forbid(unsafe_code)]

pub mod every_operation;
pub mod fixtures;
pub mod json_paths;
pub mod requests;
pub mod workloads;

use pipe_api_proto::retry::RetryPolicy;
// The sample ids and the interfaces of tests that only parse answers have one home.
pub use every_operation::{ORG, PIPE, SERVICE, alerting, management};
use pipe_api_types::{OrganizationId, PipeId, ServiceId};

/// [`ORG`], [`SERVICE`] and [`PIPE`] as ids.
pub fn ids() -> (OrganizationId, ServiceId, PipeId) {
    (org(), service(), pipe())
}

/// [`ORG`] as an id.
pub fn org() -> OrganizationId {
    ORG.parse().expect("a uuid")
}

/// [`SERVICE`] as an id.
pub fn service() -> ServiceId {
    SERVICE.parse().expect("a uuid")
}

/// [`PIPE`] as an id.
pub fn pipe() -> PipeId {
    PIPE.parse().expect("a uuid")
}

/// The overall deadline of [`fast_retries`].
pub const FAST_RETRY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(4);

/// The real retry decisions with waits of milliseconds: at most 3 attempts, server hints
/// honoured up to 1 s, [`FAST_RETRY_DEADLINE`] in all, an attempt started only with 1 s left.
pub fn fast_retries() -> RetryPolicy {
    let mut policy = RetryPolicy::default();
    policy.max_attempts = 3;
    policy.base_delay = std::time::Duration::from_millis(1);
    policy.max_delay = std::time::Duration::from_millis(10);
    policy.max_server_delay = std::time::Duration::from_secs(1);
    policy.deadline = FAST_RETRY_DEADLINE;
    policy.min_attempt_time = std::time::Duration::from_secs(1);
    policy
}

/// The README's code, compiled and run as doc tests, so the README cannot drift from the API.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// One request as a raw server read it.
#[derive(Clone, Debug, Default)]
pub struct SeenRequest {
    /// `GET /v1/...`.
    pub request_line: String,
    /// Header lines, lower-cased names.
    pub headers: Vec<(String, String)>,
    /// The body (by Content-Length).
    pub body: Vec<u8>,
}

impl SeenRequest {
    /// The first header named `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Reads one request head and body from `stream`; `None` when the peer closed first.
pub fn read_request<R: Read>(reader: &mut BufReader<R>) -> Option<SeenRequest> {
    let mut request = SeenRequest::default();
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    request.request_line = line.trim_end().to_owned();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':') {
            request.headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length = request.header("content-length").and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    request.body = vec![0; length];
    reader.read_exact(&mut request.body).ok()?;
    Some(request)
}

/// A listener on 127.0.0.1 that hands each connection to `handler` on its own thread and
/// records every request the handler reads through [`Connection::read_request`].
pub struct RawServer {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
    connections: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

/// One accepted connection, for a handler.
pub struct Connection {
    reader: BufReader<TcpStream>,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
}

impl Connection {
    /// Reads the next request (recorded); `None` when the peer closed.
    pub fn read_request(&mut self) -> Option<SeenRequest> {
        let request = read_request(&mut self.reader)?;
        self.seen.lock().unwrap().push(request.clone());
        Some(request)
    }

    /// The stream, to write a response (or not).
    pub fn stream(&mut self) -> &mut TcpStream {
        self.reader.get_mut()
    }

    /// Writes raw bytes, ignoring a peer that went away.
    pub fn write(&mut self, bytes: &[u8]) {
        let _ = self.stream().write_all(bytes);
        let _ = self.stream().flush();
    }

    /// Closes at once. When bytes the peer sent are still unread (such as a request this
    /// handler never read), the kernel answers with a TCP reset rather than an orderly close.
    pub fn abort(self) {
        drop(self.reader);
    }

    /// Ends the connection in an orderly way (FIN), possibly in the middle of a response.
    pub fn close(mut self) {
        let _ = self.stream().shutdown(std::net::Shutdown::Both);
    }
}

impl RawServer {
    /// Starts a server whose connections go to `handler`.
    pub fn start(handler: impl Fn(Connection) + Send + Sync + 'static) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let handler = Arc::new(handler);
        {
            let (seen, connections, stop) = (seen.clone(), connections.clone(), stop.clone());
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    connections.fetch_add(1, Ordering::SeqCst);
                    let (handler, seen) = (handler.clone(), seen.clone());
                    thread::spawn(move || handler(Connection { reader: BufReader::new(stream), seen }));
                }
            });
        }
        RawServer { addr, seen, connections, stop }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every request read so far.
    pub fn requests(&self) -> Vec<SeenRequest> {
        self.seen.lock().unwrap().clone()
    }

    /// How many connections were accepted.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so its thread ends.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// A complete HTTP/1.1 response with a body and a Content-Length.
pub fn http_response(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status}\r\ncontent-length: {}\r\n", body.len()).into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

/// An address on 127.0.0.1 where nothing listens (bound, then released).
pub fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    addr
}

/// A TLS listener on 127.0.0.1 that answers each request with `handle`: the fake behind real
/// TLS, with a certificate for `localhost` made when it starts (rcgen; rustls on ring, as ureq
/// uses). One request per connection.
pub struct TlsServer {
    addr: SocketAddr,
    root_pem: String,
}

impl TlsServer {
    /// Starts serving.
    pub fn start(
        handle: impl Fn(http::Request<Vec<u8>>) -> http::Response<Vec<u8>> + Send + Sync + 'static,
    ) -> TlsServer {
        let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("a certificate");
        let chain = vec![certified.cert.der().clone()];
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("a server configuration");
        let config = Arc::new(config);
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let addr = listener.local_addr().expect("an address");
        let handle = Arc::new(handle);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (config, handle) = (Arc::clone(&config), Arc::clone(&handle));
                thread::spawn(move || {
                    let Ok(connection) = rustls::ServerConnection::new(config) else { return };
                    let mut tls = rustls::StreamOwned::new(connection, stream);
                    let Some(seen) = read_request(&mut BufReader::new(&mut tls)) else { return };
                    let (method, target) = seen.request_line.split_once(' ').unwrap_or(("GET", "/"));
                    let target = target.rsplit_once(' ').map_or(target, |(target, _)| target);
                    let mut request = http::Request::builder().method(method).uri(target);
                    for (name, value) in &seen.headers {
                        request = request.header(name.as_str(), value.as_str());
                    }
                    let response = handle(request.body(seen.body).expect("a request"));
                    let mut head = format!("HTTP/1.1 {}\r\n", response.status());
                    for (name, value) in response.headers() {
                        head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap_or("")));
                    }
                    head.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", response.body().len()));
                    let _ = tls.write_all(head.as_bytes());
                    let _ = tls.write_all(response.body());
                    tls.conn.send_close_notify();
                    let _ = tls.flush();
                });
            }
        });
        TlsServer { addr, root_pem: certified.cert.pem() }
    }

    /// `https://localhost:<port>`.
    pub fn base_url(&self) -> String {
        format!("https://localhost:{}", self.addr.port())
    }

    /// The certificate to trust, in PEM.
    pub fn root_pem(&self) -> &str {
        &self.root_pem
    }
}
