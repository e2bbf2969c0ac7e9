//! The fake served over real HTTP on 127.0.0.1, by `tiny_http` (keep-alive included).

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::fake::Fake;

/// Request bodies above this answer 413 instead of being read on.
const MAX_REQUEST_BODY: u64 = 16 * 1024 * 1024;

/// A running HTTP server for a [`Fake`]. Dropping it stops the server.
pub struct FakeServer {
    fake: Fake,
    address: SocketAddr,
    server: Arc<tiny_http::Server>,
    acceptor: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FakeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeServer").field("address", &self.address).finish_non_exhaustive()
    }
}

impl Fake {
    /// Serves this fake over HTTP on `127.0.0.1`, on a free port, until the server is dropped.
    pub fn serve(&self) -> std::io::Result<FakeServer> {
        FakeServer::start(self.clone(), 0)
    }

    /// Serves this fake over HTTP on `127.0.0.1:port` (`0`: a free port, as
    /// [`Fake::serve`]), until the server is dropped: for a fake that other programs are
    /// pointed at by a fixed URL. A port already taken is the bind's error.
    pub fn serve_on(&self, port: u16) -> std::io::Result<FakeServer> {
        FakeServer::start(self.clone(), port)
    }
}

impl FakeServer {
    fn start(fake: Fake, port: u16) -> std::io::Result<FakeServer> {
        let server = tiny_http::Server::from_listener(listener(port)?, None).map_err(std::io::Error::other)?;
        let address = server.server_addr().to_ip().ok_or_else(|| std::io::Error::other("not an IP listener"))?;
        let server = Arc::new(server);
        let acceptor = {
            let (server, fake) = (Arc::clone(&server), fake.clone());
            std::thread::Builder::new().name("pipe-api-fake".into()).spawn(move || {
                // Ends when `unblock` is called on drop.
                for request in server.incoming_requests() {
                    let fake = fake.clone();
                    // One thread per request, so a delayed answer does not hold up the others.
                    std::thread::spawn(move || answer(&fake, request));
                }
            })?
        };
        Ok(FakeServer { fake, address, server, acceptor: Some(acceptor) })
    }

    /// `http://127.0.0.1:<port>`: the base URL of both interfaces.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The address the server listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The fake behind the server, to seed, steer or inspect while it serves.
    pub fn fake(&self) -> &Fake {
        &self.fake
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn answer(fake: &Fake, mut request: tiny_http::Request) {
    let response = match to_http(&mut request) {
        Ok(http_request) => match fake.respond(http_request) {
            Some(response) => response,
            None => return drop_connection(request),
        },
        Err(status) => {
            let mut response = http::Response::new(Vec::new());
            *response.status_mut() = status;
            response
        }
    };
    let (parts, body) = response.into_parts();
    let mut reply = tiny_http::Response::from_data(body).with_status_code(parts.status.as_u16());
    for (name, value) in &parts.headers {
        if let Ok(header) = tiny_http::Header::from_bytes(name.as_str().as_bytes(), value.as_bytes()) {
            reply.add_header(header);
        }
    }
    // The client may have gone away; nothing to tell it then.
    let _ = request.respond(reply);
}

/// Ends the exchange with no answer a client can read. tiny_http keeps a connection open until
/// the client closes it, so the socket cannot be shut from here: the answer is a line that is
/// no HTTP status line, which an HTTP client fails to read (after sending, as with a dropped
/// connection) and closes on.
fn drop_connection(request: tiny_http::Request) {
    let mut writer = request.into_writer();
    let _ = writer.write_all(b"\0\r\n\r\n");
    let _ = writer.flush();
}

fn to_http(request: &mut tiny_http::Request) -> Result<http::Request<Vec<u8>>, http::StatusCode> {
    let mut builder = http::Request::builder().method(request.method().as_str()).uri(request.url());
    for header in request.headers() {
        builder = builder.header(header.field.as_str().as_str(), header.value.as_str());
    }
    let mut body = Vec::new();
    request.as_reader().take(MAX_REQUEST_BODY + 1).read_to_end(&mut body).map_err(|_| http::StatusCode::BAD_REQUEST)?;
    if body.len() as u64 > MAX_REQUEST_BODY {
        return Err(http::StatusCode::PAYLOAD_TOO_LARGE);
    }
    builder.body(body).map_err(|_| http::StatusCode::BAD_REQUEST)
}

/// A listener on `port` of 127.0.0.1 (a free one for `0`) with `TCP_NODELAY`, which accepted
/// connections inherit: tiny_http writes an answer's head and body separately, and with Nagle's
/// algorithm the body would wait for the client's delayed ACK (40 ms) whenever the answer
/// passes 1 KiB.
fn listener(port: u16) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.set_nodelay(true)?;
    if port != 0 {
        // A fixed port served again right after a run (its connections in TIME_WAIT) binds;
        // on Linux this never lets two listeners share it.
        socket.set_reuse_address(true)?;
    }
    socket.bind(&SocketAddr::from(([127, 0, 0, 1], port)).into())?;
    socket.listen(128)?;
    Ok(socket.into())
}
