//! How a pipe authenticates to its source, whatever the kind.

open_enum! {
    /// How a pipe authenticates to its source.
    pub enum Authentication {
        /// SASL PLAIN user name and password.
        Plain => "PLAIN",
        /// SASL SCRAM-SHA-256.
        ScramSha256 => "SCRAM-SHA-256",
        /// SASL SCRAM-SHA-512.
        ScramSha512 => "SCRAM-SHA-512",
        /// An IAM role the service assumes.
        IamRole => "IAM_ROLE",
        /// An IAM user's access key.
        IamUser => "IAM_USER",
        /// Mutual TLS with a client certificate.
        MutualTls => "MUTUAL_TLS",
        /// A connection string (Azure).
        ConnectionString => "CONNECTION_STRING",
        /// A service account key (GCS).
        ServiceAccount => "SERVICE_ACCOUNT",
        /// User name and password (Postgres).
        Basic => "basic",
    }
}
