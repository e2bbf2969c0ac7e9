//! `source.objectStorage`: files in a bucket.

use super::{Authentication, Credentials, DataFormat};
use crate::{IntoField, Secret, Text};

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
