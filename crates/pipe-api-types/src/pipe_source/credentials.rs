//! The credentials a source carries (requests only: servers never echo them back).

use super::Authentication;
use crate::validate::{Checker, Rule};
use crate::{Secret, Text};

model! {
    /// Credentials for a source. Which fields are used depends on the authentication:
    /// `username`/`password` (PLAIN, SCRAM, Postgres), `accessKeyId`/`secretKey` (IAM_USER, and
    /// every `accessKey`), `connectionString` (Azure Event Hubs), `certificate`/`privateKey`
    /// (MUTUAL_TLS). Servers never echo credentials back.
    pub struct Credentials {
        /// User name.
        "username" username: Text,
        /// Password.
        "password" password: Secret,
        /// Access key id.
        "accessKeyId" access_key_id: Text,
        /// Secret access key.
        "secretKey" secret_key: Secret,
        /// Connection string.
        "connectionString" connection_string: Secret,
        /// Client certificate (PEM).
        "certificate" certificate: Text,
        /// Client private key (PEM).
        "privateKey" private_key: Secret,
    }
}

impl Credentials {
    /// A user name and password.
    pub fn user_password(username: impl Into<Text>, password: impl Into<Secret>) -> Self {
        Credentials { username: Some(username.into()), password: Some(password.into()), ..Default::default() }
    }

    /// An access key id and secret access key.
    pub fn access_key(access_key_id: impl Into<Text>, secret_key: impl Into<Secret>) -> Self {
        Credentials {
            access_key_id: Some(access_key_id.into()),
            secret_key: Some(secret_key.into()),
            ..Default::default()
        }
    }

    /// A connection string.
    pub fn from_connection_string(connection_string: impl Into<Secret>) -> Self {
        Credentials { connection_string: Some(connection_string.into()), ..Default::default() }
    }

    /// A client certificate and its private key.
    pub fn client_certificate(certificate: impl Into<Text>, private_key: impl Into<Secret>) -> Self {
        Credentials {
            certificate: Some(certificate.into()),
            private_key: Some(private_key.into()),
            ..Default::default()
        }
    }
}

model! {
    /// A Google Cloud service account (the contract's `ServiceAccount`): BigQuery's
    /// `credentials` and Pub/Sub's `serviceAccountKey` (requests only).
    pub struct ServiceAccount {
        /// The service account's JSON key file, base64 encoded.
        "serviceAccountFile" service_account_file: Secret,
    }
}

impl ServiceAccount {
    /// The service account whose JSON key file, base64 encoded, is `service_account_file`.
    pub fn new(service_account_file: impl Into<Secret>) -> Self {
        ServiceAccount { service_account_file: Some(service_account_file.into()), ..Default::default() }
    }
}

/// A service account names its key file (`ServiceAccount.serviceAccountFile`).
pub(crate) fn check_service_account(c: &mut Checker, account: &ServiceAccount) {
    c.present("serviceAccountFile", &account.service_account_file, Rule::Required, |_, _| {});
}

/// A credentials field and whether a value has it.
type CredentialCheck = (&'static str, fn(&Credentials) -> bool);

/// The credentials an authentication method needs are present.
pub(crate) fn check_credentials(
    c: &mut Checker,
    authentication: Option<&Authentication>,
    credentials: &Option<Credentials>,
    credentials_field: &'static str,
    iam_role: &Option<Text>,
) {
    let needs: &[CredentialCheck] = match authentication {
        Some(
            Authentication::Plain | Authentication::ScramSha256 | Authentication::ScramSha512 | Authentication::Basic,
        ) => &[
            ("username", |k| k.username.as_ref().is_some_and(|u| !u.is_empty())),
            ("password", |k| k.password.is_some()),
        ],
        Some(Authentication::IamUser) => &[
            ("accessKeyId", |k| k.access_key_id.as_ref().is_some_and(|u| !u.is_empty())),
            ("secretKey", |k| k.secret_key.is_some()),
        ],
        Some(Authentication::MutualTls) => &[
            ("certificate", |k| k.certificate.as_ref().is_some_and(|u| !u.is_empty())),
            ("privateKey", |k| k.private_key.is_some()),
        ],
        Some(Authentication::IamRole) => {
            if iam_role.as_ref().is_none_or(|r| r.trim().is_empty()) {
                c.fail_at("iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"));
            }
            &[]
        }
        _ => &[],
    };
    if needs.is_empty() {
        return;
    }
    let why = match authentication {
        Some(Authentication::Plain) => "when authentication is PLAIN",
        Some(Authentication::ScramSha256) => "when authentication is SCRAM-SHA-256",
        Some(Authentication::ScramSha512) => "when authentication is SCRAM-SHA-512",
        Some(Authentication::Basic) => "when authentication is basic",
        Some(Authentication::IamUser) => "when authentication is IAM_USER",
        _ => "when authentication is MUTUAL_TLS",
    };
    c.field(credentials_field, |c| match credentials {
        None => c.fail(Rule::RequiredBecause(why)),
        Some(credentials) => {
            for (name, has) in needs {
                if !has(credentials) {
                    c.fail_at(name, Rule::RequiredBecause(why));
                }
            }
        }
    });
}
