//! `source.objectStorage`: files in a bucket.

use super::{Allowed, Authentication, Check, Credentials, DataFormat, Kind, KindPatch, SourceKind};
use super::{check_allowed, check_credentials};
use crate::nullable::set;
use crate::validate::{Checker, Rule, one_of};
use crate::{IntoField, Nullable, Secret, Text};

open_enum! {
    /// The object storage provider.
    pub enum ObjectStorageType {
        /// Amazon S3.
        S3 => "s3",
        /// Google Cloud Storage.
        Gcs => "gcs",
        /// DigitalOcean Spaces.
        DoSpaces => "dospaces",
        /// Azure Blob Storage.
        AzureBlobStorage => "azureblobstorage",
        /// Cloudflare R2.
        CloudflareR2 => "cloudflarer2",
        /// OVH Object Storage.
        OvhObjectStorage => "ovhobjectstorage",
    }
}

open_enum! {
    /// The compression of objects.
    pub enum Compression {
        /// Not compressed.
        None => "none",
        /// gzip.
        Gzip => "gzip",
        /// gzip (short name).
        Gz => "gz",
        /// Brotli.
        Brotli => "brotli",
        /// Brotli (short name).
        Br => "br",
        /// xz.
        Xz => "xz",
        /// LZMA.
        Lzma => "LZMA",
        /// Zstandard.
        Zstd => "zstd",
        /// Detected from the file name.
        Auto => "auto",
    }
}

model! {
    /// `source.objectStorage`: files in a bucket. For a request, build it with
    /// [`ObjectStorageSource::new`], or [`ObjectStorageSource::azure_blob_storage`] for Azure
    /// (`Default` is what a read starts from).
    pub struct ObjectStorageSource {
        /// The storage provider.
        "type" kind: ObjectStorageType,
        /// The file format.
        "format" format: DataFormat,
        /// The files' URL; may contain glob patterns.
        "url" url: Text,
        /// The field delimiter of CSV-like formats.
        "delimiter" delimiter: Text,
        /// The files' compression.
        "compression" compression: Compression,
        /// Whether new files keep being ingested.
        "isContinuous" is_continuous: bool,
        /// The queue that announces new files.
        "queueUrl" queue_url: Text,
        /// How to authenticate.
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// Connection string (Azure); credential-bearing.
        "connectionString" connection_string: Secret,
        /// Path inside the container; may contain glob patterns.
        "path" path: Text,
        /// The Azure container.
        "azureContainerName" azure_container_name: Text,
        /// Skip the files already there when the pipe starts (continuous ingestion).
        "skipInitialLoad" skip_initial_load: bool,
        /// Start after this object key (continuous ingestion).
        "startAfter" start_after: Text,
        /// Access key for `IAM_USER` (requests only).
        "accessKey" access_key: Credentials,
        /// Service account key for `SERVICE_ACCOUNT` (requests only).
        "serviceAccountKey" service_account_key: Secret,
    }
}

impl ObjectStorageSource {
    /// Files of provider `kind` at `url` (which may hold glob patterns) in `format`: what the
    /// service requires of every provider but Azure Blob Storage, which names a container instead
    /// ([`azure_blob_storage`](Self::azure_blob_storage)). Authentication is a setter (absent:
    /// public files). `Default` is for reading; build a request with this.
    pub fn new(
        kind: impl IntoField<ObjectStorageType>,
        format: impl IntoField<DataFormat>,
        url: impl Into<Text>,
    ) -> Self {
        ObjectStorageSource {
            kind: Some(kind.into_field()),
            format: Some(format.into_field()),
            url: Some(url.into()),
            ..Default::default()
        }
    }

    /// Files in the Azure Blob Storage container `azure_container_name` in `format`: Azure has
    /// no `url` but a container, required for that type, and a [`path`](Self::path) inside it
    /// (management OpenAPI, `PipePostObjectStorageSource.azureContainerName`).
    pub fn azure_blob_storage(format: impl IntoField<DataFormat>, azure_container_name: impl Into<Text>) -> Self {
        ObjectStorageSource {
            kind: Some(ObjectStorageType::AzureBlobStorage),
            format: Some(format.into_field()),
            azure_container_name: Some(azure_container_name.into()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.objectStorage` in an update (`PipePatchObjectStorageSource`).
    pub struct ObjectStorageSourcePatch {
        /// Skip the initial load, ingesting only files announced by the queue.
        "skipInitialLoad" skip_initial_load: Nullable<bool>,
        /// Skip every file up to and including this object key in the initial load.
        "startAfter" start_after: Nullable<Text>,
        /// How to authenticate: `IAM_ROLE`, `IAM_USER`, `CONNECTION_STRING` or `SERVICE_ACCOUNT`.
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// Connection string for `CONNECTION_STRING` (Azure).
        "connectionString" connection_string: Nullable<Secret>,
        /// Path inside the Azure container; may contain glob patterns.
        "path" path: Nullable<Text>,
        /// The Azure container.
        "azureContainerName" azure_container_name: Nullable<Text>,
        /// Access key for `IAM_USER`.
        "accessKey" access_key: Nullable<Credentials>,
        /// Base64 of a GCP service account JSON key, for `SERVICE_ACCOUNT`.
        "serviceAccountKey" service_account_key: Nullable<Secret>,
    }
}

impl ObjectStorageType {
    /// The `authentication`s the contract allows for this provider; `None` for a provider this
    /// crate does not know (it gets the kind's whole enum). Cloudflare R2 and OVH are named for
    /// no method: "IAM_ROLE is for S3 only" and "SERVICE_ACCOUNT is for GCS only" exclude those
    /// two, and `CONNECTION_STRING` is Azure's, but nothing excludes `IAM_USER`, the access key
    /// pair every S3-compatible store takes, so it is not refused (a rule must come from the
    /// contract, and a private R2 or OVH bucket needs it).
    pub(crate) fn authentications(&self) -> Option<Allowed<Authentication>> {
        use Authentication::*;
        let (owner, values): (_, &[Authentication]) = match self {
            ObjectStorageType::S3 => ("type s3", &[IamRole, IamUser]),
            ObjectStorageType::Gcs => ("type gcs", &[IamUser, ServiceAccount]),
            ObjectStorageType::DoSpaces => ("type dospaces", &[IamUser]),
            ObjectStorageType::AzureBlobStorage => ("type azureblobstorage", &[ConnectionString]),
            ObjectStorageType::CloudflareR2 => ("type cloudflarer2", &[IamUser]),
            ObjectStorageType::OvhObjectStorage => ("type ovhobjectstorage", &[IamUser]),
            ObjectStorageType::Unrecognized(_) => return None,
        };
        Some(Allowed { owner, values })
    }
}

impl Kind for ObjectStorageSource {
    const FORMATS: Option<&'static [DataFormat]> = {
        use DataFormat::*;
        Some(&[JsonEachRow, JsonAsObject, Csv, CsvWithNames, TabSeparated, TabSeparatedWithNames, Parquet, Avro])
    };
    const AUTHENTICATIONS: Option<&'static [Authentication]> = {
        use Authentication::*;
        Some(&[IamRole, IamUser, ConnectionString, ServiceAccount])
    };
    const DATABASE: bool = false;
}

/// `PipePostObjectStorageSource`.
impl Check for ObjectStorageSource {
    fn check(&self, c: &mut Checker<'_>) {
        let storage = self;
        c.present("type", &storage.kind, Rule::Required, |_, _| {});
        c.present("format", &storage.format, Rule::Required, |_, _| {});
        c.known("type", &storage.kind);
        c.known("format", &storage.format);
        c.known("compression", &storage.compression);
        c.known("authentication", &storage.authentication);
        check_allowed(c, "format", &storage.format, SourceKind::ObjectStorage.formats());
        let by_type = storage.kind.as_ref().and_then(ObjectStorageType::authentications);
        let allowed = by_type.or(SourceKind::ObjectStorage.authentications());
        let method_allowed = check_allowed(c, "authentication", &storage.authentication, allowed);
        // Azure Blob Storage names a container (required for that type) and a path; every
        // other type a url (management OpenAPI, PipeObjectStorageSource).
        if storage.kind == Some(ObjectStorageType::AzureBlobStorage) {
            c.required_text("azureContainerName", &storage.azure_container_name);
        } else {
            c.required_text("url", &storage.url);
        }
        match storage.authentication.as_ref() {
            _ if !method_allowed => {}
            Some(Authentication::ConnectionString) if storage.connection_string.is_none() => {
                c.fail_at("connectionString", Rule::RequiredBecause("when authentication is CONNECTION_STRING"));
            }
            Some(Authentication::ServiceAccount) if storage.service_account_key.is_none() => {
                c.fail_at("serviceAccountKey", Rule::RequiredBecause("when authentication is SERVICE_ACCOUNT"));
            }
            auth => check_credentials(c, auth, &storage.access_key, "accessKey", &storage.iam_role),
        }
    }
}

impl KindPatch for ObjectStorageSourcePatch {
    const REQUIRED: &'static [&'static str] = &[];
    const SETTINGS: &'static [&'static str] = &[];
}

/// PipePatchObjectStorageSource's own statements.
impl Check for ObjectStorageSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let storage = self;
        let authentication = set(&storage.authentication).cloned();
        one_of(c, "authentication", &authentication, &SourceKind::ObjectStorage.authentication_texts());
        // startAfter: "Cannot be provided when skipInitialLoad is true".
        if set(&storage.skip_initial_load) == Some(&true) && set(&storage.start_after).is_some() {
            c.fail_at("startAfter", Rule::NotAllowedBecause("when skipInitialLoad is true"));
        }
        // connectionString and serviceAccountKey: "Required when authentication is ...".
        match authentication {
            Some(Authentication::ConnectionString) if set(&storage.connection_string).is_none() => {
                c.fail_at("connectionString", Rule::RequiredBecause("when authentication is CONNECTION_STRING"));
            }
            Some(Authentication::ServiceAccount) if set(&storage.service_account_key).is_none() => {
                c.fail_at("serviceAccountKey", Rule::RequiredBecause("when authentication is SERVICE_ACCOUNT"));
            }
            _ => {}
        }
        if let Some(container) = set(&storage.azure_container_name) {
            c.field("azureContainerName", |c| c.text(container));
        }
    }
}
