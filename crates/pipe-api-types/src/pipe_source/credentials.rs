//! The credentials a source carries (requests only: servers never echo them back).

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
