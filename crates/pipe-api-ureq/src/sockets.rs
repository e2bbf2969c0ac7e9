//! The agent's connections: ureq's own (a CONNECT proxy, TCP, TLS), with every wait for input
//! on a socket made in slices of at most a second, so that an exchange ends when its time is
//! up rather than when Linux fires a long socket timeout.
//!
//! A socket read timeout of `t` fires up to `t / 8` late: Linux's timer wheel keeps longer
//! timers coarser (at 250 Hz a 30 s one fires up to 2 s late, a 130 s one up to 16 s). Asking
//! for less than the time left (the transport once asked for 8/9 of it) ends a silent exchange
//! early by as much as it may otherwise end late. Here each wait asks the socket for at most
//! a second, and for no more than proto's
//! [`socket_timeout_within`](pipe_api_proto::socket_timeout_within) of what is left, then waits
//! again until the exchange's time, measured on the monotonic clock, is up: a silent exchange
//! ends within a few milliseconds after its time, whatever its length and whichever phase of
//! ureq's it is in.
//!
//! This uses ureq's `unversioned::transport` (the connector chain), the only place where a
//! socket's waits can be reached. Writes are not sliced: a write waits only when the server
//! stops reading a request larger than the sockets' buffers, and a write that timed out part
//! way cannot be resumed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::unversioned::transport::{
    Buffers, ConnectProxyConnector, ConnectionDetails, Connector, Either, NextTimeout, TcpConnector, Transport,
};

/// The longest one wait asks of a socket: it fires at most a ninth of it late at any tick rate,
/// and at 100 to 1000 Hz within 80 ms.
const SLICE: Duration = Duration::from_secs(1);

/// ureq's own connector chain as this crate's features make it, the TCP connection's waits
/// sliced: no SOCKS (one from the environment is ignored with a warning, as ureq does
/// without its `socks-proxy` feature), a CONNECT proxy, TCP, then TLS by the provider the
/// features choose. ureq itself refuses an `https` request over a connection without TLS.
pub(crate) fn connector() -> impl Connector {
    let chain = ().chain(NoSocks).chain(ConnectProxyConnector::default()).chain(TcpConnector::default()).chain(Sliced);
    #[cfg(feature = "rustls")]
    let chain = chain.chain(ureq::unversioned::transport::RustlsConnector::default());
    #[cfg(feature = "native-tls")]
    let chain = chain.chain(ureq::unversioned::transport::NativeTlsConnector::default());
    chain
}

/// Whether `proxy` is a SOCKS proxy, which this build cannot use (ureq's `socks-proxy` feature
/// is off).
pub(crate) fn is_socks(proxy: &ureq::Proxy) -> bool {
    use ureq::ProxyProtocol::{Socks4, Socks4A, Socks5, Socks5h};
    matches!(proxy.protocol(), Socks4 | Socks4A | Socks5 | Socks5h)
}

/// Ignores a SOCKS proxy from the environment with a warning, as ureq's own chain does
/// ([`TransportConfig::with_proxy`](crate::TransportConfig::with_proxy) refuses one given
/// explicitly).
#[derive(Debug)]
struct NoSocks;

impl Connector for NoSocks {
    type Out = ();

    fn connect(&self, details: &ConnectionDetails, chained: Option<()>) -> Result<Option<()>, ureq::Error> {
        if let Some(proxy) = details.config.proxy().filter(|proxy| is_socks(proxy)) {
            log::warn!(target: "pipe_api_ureq", "ignoring the SOCKS proxy {}: this build has no SOCKS", proxy.host());
        }
        Ok(chained)
    }
}

/// Wraps the TCP connection the [`TcpConnector`] made (not one a proxy made, which was made
/// by this chain already) in [`SlicedWaits`], below TLS: a TLS stream is not read again after
/// a read failed, a socket is.
#[derive(Debug)]
struct Sliced;

impl<Passed: Transport, Tcp: Transport> Connector<Either<Passed, Tcp>> for Sliced {
    type Out = Either<Passed, SlicedWaits<Tcp>>;

    fn connect(
        &self,
        _: &ConnectionDetails,
        chained: Option<Either<Passed, Tcp>>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        Ok(chained.map(|transport| match transport {
            Either::A(passed) => Either::A(passed),
            Either::B(tcp) => Either::B(SlicedWaits::new(tcp)),
        }))
    }
}

/// A transport whose every wait for input is made in slices: see the module's docs.
struct SlicedWaits<T> {
    inner: T,
    /// The monotonic clock (a test's own, in tests).
    now: Clock,
}

/// What reads the monotonic clock.
type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

impl<T: Transport> SlicedWaits<T> {
    fn new(inner: T) -> Self {
        SlicedWaits::with_clock(inner, Arc::new(Instant::now))
    }

    fn with_clock(inner: T, now: Clock) -> Self {
        SlicedWaits { inner, now }
    }
}

impl<T: Transport> Transport for SlicedWaits<T> {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.inner.transmit_output(amount, timeout)
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        let wanted = timeout.for_read();
        if wanted.after.is_not_happening() {
            return self.inner.await_input(timeout);
        }
        // A time beyond the clock's reach is no limit: waited for as ureq would.
        let Some(until) = (self.now)().checked_add(*wanted.after) else {
            return self.inner.await_input(timeout);
        };
        loop {
            let left = until.saturating_duration_since((self.now)());
            if left.is_zero() {
                return Err(ureq::Error::Timeout(wanted.reason));
            }
            // Never zero, which ureq would take as "over" (the socket rounds it up to a tick).
            let asked = pipe_api_proto::socket_timeout_within(left.min(SLICE)).max(Duration::from_nanos(1));
            // What ureq asked for, but at most a slice: `for_read` leaves it as it is.
            let slice = NextTimeout { after: asked.into(), reason: wanted.reason, ..timeout };
            match self.inner.await_input(slice) {
                // Only the slice is over: wait again.
                Err(ureq::Error::Timeout(_)) => continue,
                other => return other,
            }
        }
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }

    fn is_tls(&self) -> bool {
        self.inner.is_tls()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for SlicedWaits<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlicedWaits").field("inner", &self.inner).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use ureq::Timeout;
    use ureq::unversioned::transport::{Buffers, LazyBuffers, NextTimeout, Transport};

    use super::{SLICE, SlicedWaits};

    /// A socket on a virtual clock: each wait moves the clock by what it was asked for (plus
    /// an eighth when `late`, the latest Linux may fire), then times out, or brings input
    /// once the clock reaches `answers_at`.
    #[derive(Debug)]
    struct Socket {
        buffers: LazyBuffers,
        elapsed: Arc<Mutex<Duration>>,
        asked: Vec<Duration>,
        answers_at: Option<Duration>,
        late: bool,
    }

    impl Transport for Socket {
        fn buffers(&mut self) -> &mut dyn Buffers {
            &mut self.buffers
        }

        fn transmit_output(&mut self, _: usize, _: NextTimeout) -> Result<(), ureq::Error> {
            Ok(())
        }

        fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
            let timeout = timeout.for_read();
            let asked = *timeout.after;
            self.asked.push(asked);
            let mut elapsed = self.elapsed.lock().unwrap();
            if let Some(at) = self.answers_at.filter(|at| *at <= *elapsed + asked) {
                *elapsed = at.max(*elapsed);
                return Ok(true);
            }
            *elapsed += if self.late { asked + asked / 8 } else { asked };
            Err(ureq::Error::Timeout(timeout.reason))
        }

        fn is_open(&mut self) -> bool {
            true
        }
    }

    /// A wait of `after` on a silent socket (or one that answers at `answers_at`): its
    /// outcome, the virtual time it took and every timeout the socket was asked for.
    fn wait(
        after: Duration,
        answers_at: Option<Duration>,
        late: bool,
    ) -> (Result<bool, ureq::Error>, Duration, Vec<Duration>) {
        let elapsed = Arc::new(Mutex::new(Duration::ZERO));
        let origin = Instant::now();
        let clock = {
            let elapsed = elapsed.clone();
            Arc::new(move || origin + *elapsed.lock().unwrap())
        };
        let socket =
            Socket { buffers: LazyBuffers::new(64, 64), elapsed: elapsed.clone(), asked: Vec::new(), answers_at, late };
        let mut sliced = SlicedWaits::with_clock(socket, clock);
        let timeout = NextTimeout { after: after.into(), reason: Timeout::Global, ..NextTimeout::default() };
        let outcome = sliced.await_input(timeout);
        let took = *elapsed.lock().unwrap();
        (outcome, took, sliced.inner.asked)
    }

    /// A silent socket's wait ends at the time asked, not before and at most a few
    /// milliseconds after, however long it is and however late the socket fires, and no
    /// socket is asked for more than a slice.
    #[test]
    fn a_silent_wait_ends_at_its_time() {
        let waits =
            [Duration::from_millis(300), Duration::from_secs(2), Duration::from_secs(30), Duration::from_secs(600)];
        for (after, late) in waits.into_iter().flat_map(|after| [(after, true), (after, false)]) {
            let (outcome, took, asked) = wait(after, None, late);
            assert!(matches!(outcome, Err(ureq::Error::Timeout(Timeout::Global))), "{outcome:?}");
            assert!(took >= after, "{after:?} ended after {took:?}");
            assert!(took <= after + Duration::from_millis(5), "{after:?} ended after {took:?}");
            assert!(asked.iter().all(|asked| *asked < SLICE), "{asked:?}");
            // A socket that fires on time leaves a ninth each time: a few more short waits.
            assert!(asked.len() as u64 <= after.as_secs() * 9 / 8 + 16, "{after:?}: {} waits", asked.len());
        }
    }

    /// Input that comes during a later slice is read then, as if the wait had been one.
    #[test]
    fn input_in_a_later_slice_is_read() {
        let (outcome, took, asked) = wait(Duration::from_secs(30), Some(Duration::from_millis(4500)), true);
        assert!(matches!(outcome, Ok(true)), "{outcome:?}");
        assert_eq!(took, Duration::from_millis(4500));
        assert_eq!(asked.len(), 5, "{asked:?}");
    }
}
