//! The [`Client`]: one method per operation, and the loop that follows proto's retry and
//! pacing decisions (the only thing here that sleeps).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use pipe_api_proto::retry::{Attempt, Decision, Outcome, Pacer, RetryHints, RetryPolicy, SeededJitter};
use pipe_api_proto::{
    AlertPage, Alerting, Api, BuildError, BuildErrorKind, CreateKey, CreatePipe, Endpoint, EndpointExt, Error, GetPipe,
    GetService, ListAlerts, ListPipes, ListReversePrivateEndpoints, Management, Reply, TransportErrorKind,
    TransportFailure,
};
use pipe_api_types::{
    CreateKeyRequest, CreateKeyResponse, CreatePipeRequest, OrganizationId, Pipe, PipeId, ReversePrivateEndpoint,
    Service, ServiceId,
};

use crate::transport::UreqTransport;

/// A blocking client of the management and alerting interfaces. Build it with
/// [`Client::builder`], [`Client::management`], [`Client::alerting`] or [`Client::from_env`].
/// It is `Send + Sync`: share one between threads (they share its connection pool and pacing).
#[derive(Debug)]
pub struct Client {
    pub(crate) management: Option<Management>,
    pub(crate) alerting: Option<Alerting>,
    pub(crate) transport: UreqTransport,
    pub(crate) retry: RetryPolicy,
    pub(crate) pacer: Option<Mutex<Pacer>>,
    pub(crate) jitter: Mutex<SeededJitter>,
    /// The origin of the monotonic instants given to the pacer.
    pub(crate) origin: Instant,
}

/// An interface a [`Client`] may have configured. Implemented for [`Management`] and
/// [`Alerting`].
pub trait ClientApi: Api + Sized {
    /// The interface's name in errors.
    const NAME: &'static str;

    /// The client's configuration of this interface, if any.
    fn of(client: &Client) -> Option<&Self>;
}

impl ClientApi for Management {
    const NAME: &'static str = "management";

    fn of(client: &Client) -> Option<&Self> {
        client.management.as_ref()
    }
}

impl ClientApi for Alerting {
    const NAME: &'static str = "alerting";

    fn of(client: &Client) -> Option<&Self> {
        client.alerting.as_ref()
    }
}

impl Client {
    /// Creates an API key in `organization_id`. The response carries the new key id and
    /// secret, shown this once. Never re-sent automatically.
    pub fn create_key(
        &self,
        organization_id: OrganizationId,
        request: CreateKeyRequest,
    ) -> Result<CreateKeyResponse, Error> {
        self.value(&CreateKey::new(organization_id, request))
    }

    /// Reads a service.
    pub fn get_service(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<Service, Error> {
        self.value(&GetService::new(organization_id, service_id))
    }

    /// Lists the pipes of a service.
    pub fn list_pipes(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<Vec<Pipe>, Error> {
        self.value(&ListPipes::new(organization_id, service_id))
    }

    /// Reads a pipe.
    pub fn get_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
    ) -> Result<Pipe, Error> {
        self.value(&GetPipe::new(organization_id, service_id, pipe_id))
    }

    /// Creates a pipe. Never re-sent automatically: when the error says the outcome is
    /// unknown, list the pipes before creating again.
    pub fn create_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: CreatePipeRequest,
    ) -> Result<Pipe, Error> {
        self.value(&CreatePipe::new(organization_id, service_id, request))
    }

    /// Lists the reverse private endpoints of a service.
    pub fn list_reverse_private_endpoints(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
    ) -> Result<Vec<ReversePrivateEndpoint>, Error> {
        self.value(&ListReversePrivateEndpoints::new(organization_id, service_id))
    }

    /// Lists alerts (`ListAlerts::new()` for the server's default page).
    pub fn list_alerts(&self, request: ListAlerts) -> Result<AlertPage, Error> {
        self.value(&request)
    }

    fn value<E>(&self, endpoint: &E) -> Result<E::Output, Error>
    where
        E: Endpoint,
        E::Api: ClientApi,
    {
        self.call(endpoint).map(Reply::into_value)
    }

    /// Runs any endpoint (the escape hatch [`pipe_api_proto::Raw`] included) with retries and
    /// pacing, returning the result with the server's request id.
    pub fn call<E>(&self, endpoint: &E) -> Result<Reply<E::Output>, Error>
    where
        E: Endpoint,
        E::Api: ClientApi,
    {
        let operation = endpoint.operation();
        let api = <E::Api as ClientApi>::of(self).ok_or_else(|| {
            Error::Build(BuildError::new(operation, BuildErrorKind::NotConfigured(<E::Api as ClientApi>::NAME)))
        })?;
        let request = endpoint.build_request(api)?;
        let method = request.method().clone();
        let started = Instant::now();
        let mut attempt = 0;
        loop {
            attempt += 1;
            self.pace();
            let remaining = self.retry.deadline.saturating_sub(started.elapsed());
            let sent = self.transport.send_within(request.clone(), Some(remaining.max(Duration::from_millis(1))));
            let (hints, result) = match sent {
                Ok(response) => {
                    let hints = RetryHints::from_headers(response.headers());
                    let status = response.status();
                    (Some((status, hints)), endpoint.parse_response(response))
                }
                Err(error) => (None, Err(Error::Transport(TransportFailure::new(operation, method.clone(), error)))),
            };
            let outcome = match (&hints, &result) {
                (Some((status, hints)), _) => Outcome::Response { status: *status, hints },
                // Checked before the connect failures: nothing was sent either, but a refusal
                // would only come again.
                (None, Err(Error::Transport(failure))) if failure.error().kind() == TransportErrorKind::Refused => {
                    Outcome::Refused
                }
                (None, Err(Error::Transport(failure))) if !failure.error().may_have_reached_server() => {
                    Outcome::ConnectFailed
                }
                (None, Err(Error::Transport(failure)))
                    if failure.error().kind() == TransportErrorKind::BodyTooLarge =>
                {
                    Outcome::ResponseTooLarge
                }
                (None, _) => Outcome::FailedAfterSend,
            };
            let decision = {
                let mut jitter = self.jitter.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let input = Attempt::new(&method, outcome, attempt, started.elapsed(), time::OffsetDateTime::now_utc());
                self.retry.decide(&input, &mut *jitter)
            };
            match decision {
                Decision::RetryAfter(delay) => {
                    if let Some((status, _)) = &hints {
                        if status.as_u16() == 429 {
                            self.back_off(delay);
                        }
                    }
                    std::thread::sleep(delay);
                }
                _ => return result.map_err(|error| error.with_attempts(attempt)),
            }
        }
    }

    /// Waits until pacing lets one more request start, and records it.
    fn pace(&self) {
        let Some(pacer) = &self.pacer else {
            return;
        };
        loop {
            let mut pacer = pacer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let now = self.origin.elapsed();
            let wait = pacer.delay_before(now);
            if wait.is_zero() {
                pacer.record(now);
                return;
            }
            // Never sleep holding the lock: other threads re-check after their own wait.
            drop(pacer);
            std::thread::sleep(wait);
        }
    }

    /// A 429: the pacer also holds back every other request of this credential.
    fn back_off(&self, delay: Duration) {
        if let Some(pacer) = &self.pacer {
            let mut pacer = pacer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            pacer.back_off(self.origin.elapsed(), delay);
        }
    }

    /// The retry policy in use.
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The transport in use.
    pub fn transport(&self) -> &UreqTransport {
        &self.transport
    }
}

#[cfg(test)]
mod tests {
    use pipe_api_proto::{Error, TransportErrorKind};

    use super::Client;
    use crate::transport::UreqTransport;

    /// A transport that refuses what the client's URL asks for (the builder allowed it, the
    /// transport does not): one attempt, no retry, and the outcome is known.
    #[test]
    fn a_refusal_to_send_ends_the_call_after_one_attempt() {
        let mut client = Client::builder()
            .management("http://api.example.invalid", "key-id", "secret")
            .allow_insecure_http(true)
            .build()
            .unwrap();
        client.transport = UreqTransport::default();
        let id = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
        let error = client.get_service(id.parse().unwrap(), id.parse().unwrap()).unwrap_err();
        match &error {
            Error::Transport(failure) => assert_eq!(failure.error().kind(), TransportErrorKind::Refused, "{error}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert_eq!(error.attempts(), 1, "{error}");
        assert!(!error.outcome_unknown());
    }
}
