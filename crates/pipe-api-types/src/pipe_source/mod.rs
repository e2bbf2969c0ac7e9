//! A pipe's `source`: one sub-object per source kind (Kafka, object storage, Kinesis, Postgres,
//! Pub/Sub, MySQL, MongoDB, BigQuery), shared by the pipe record and the create-pipe request, and
//! `source` in an update.
//!
//! Each kind is one file (`kafka.rs`, ...) with its models, its rules, its update model and its
//! facts ([`Kind`], [`KindPatch`]), and one line of the table at the end of this file
//! ([`kinds!`]), from which everything that lists the kinds is generated: [`SourceKind`],
//! [`PipeSource`], [`PipeSourcePatch`], their checks and what the planner asks
//! ([`SourceKind::patch_schema`]).
//!
//! A new kind is then:
//! * its file: its models (the create and read model, and its update model if the contract has
//!   one), a `Kind` and a `Check` impl on the model, a `KindPatch` and a `Check` impl on the
//!   update model (a missing one is a compile error naming the model);
//! * its line in the table;
//! * in the workspace's tests, its fixtures and snapshots, its test, and its row in
//!   `types/kinds_table.rs` (which pins the contract's kinds); `types/secrets.rs` pins
//!   `PipeSource`'s whole `Debug`, so it names every kind too;
//! * and the fake's own server side (`checks/pipes.rs`, `routes/pipes.rs`), written from the
//!   contract, not from this crate.

mod allowed;
mod authentication;
mod credentials;
mod formats;

pub(crate) use allowed::{Allowed, check_allowed};
pub use authentication::Authentication;
pub(crate) use credentials::check_credentials;
pub use credentials::{Credentials, ServiceAccount};
pub use formats::DataFormat;

use crate::Nullable;
use crate::validate::Checker;

/// A source kind's rules, or its update's: what the create and update checks call for the kind
/// present (a trait object, so that the one loop over the kinds is compiled once).
pub(crate) trait Check {
    /// Records a violation for each rule of the contract the kind's object breaks (paths
    /// relative to it).
    fn check(&self, c: &mut Checker<'_>);
}

/// What the table of kinds needs of a kind's create and read model, declared in the kind's own
/// file. A kind whose file lacks it, or lacks one of its items, does not compile (the error
/// names the kind's model), so no kind can be half added.
pub(crate) trait Kind: Check {
    /// The `format`s the contract allows for the kind; `None` for a kind without a `format`.
    const FORMATS: Option<&'static [DataFormat]>;
    /// The `authentication`s the contract's enum has for the kind; `None` for a kind without
    /// an `authentication`.
    const AUTHENTICATIONS: Option<&'static [Authentication]>;
    /// Whether pipes of the kind are database pipes (see [`SourceKind::is_database`]).
    const DATABASE: bool;
}

/// What the table of kinds needs of a kind's update model (its patch schema), declared in the
/// kind's own file, like [`Kind`].
pub(crate) trait KindPatch: Check {
    /// The members the contract requires in every update of the kind.
    const REQUIRED: &'static [&'static str];
    /// The members of the patch's `settings` (none for a kind whose patch has no `settings`).
    const SETTINGS: &'static [&'static str];
}

/// The type of a kind's member in [`PipeSourcePatch`]: `Nullable<...Patch>` for the kinds the
/// contract lets be `null` (a `null` one changes nothing), the patch itself for the others.
pub(crate) trait PatchSlot {
    /// The kind's update model.
    type Patch: KindPatch;

    /// The patch, unless `null`.
    fn patch(&self) -> Option<&Self::Patch>;
}

impl<T: KindPatch> PatchSlot for Nullable<T> {
    type Patch = T;

    fn patch(&self) -> Option<&T> {
        self.value()
    }
}

/// What an update can say of one source kind: its patch schema in the management OpenAPI
/// (`PipePatchKafkaSource`, ...), for tools that make an update out of a desired state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatchSchema {
    /// The JSON names of the members the patch has.
    pub members: &'static [&'static str],
    /// The JSON names of the members of its `settings` (empty when it has none).
    pub settings: &'static [&'static str],
    /// The members the contract requires in every update of the kind.
    pub required: &'static [&'static str],
}

/// The table of kinds: one line per kind, `Variant "jsonKey" field: module::Source`, and
/// `, patch Slot` for a kind with an update model (its member's type in [`PipeSourcePatch`]).
/// Each line declares the kind's module and re-exports its public items; everything else a
/// kind brings is in its module (the [`Kind`] and [`KindPatch`] impls). The order is the
/// contract's and the order of every generated list (fields, checks, violations).
///
/// Why the checks go through `&dyn Check` and one function ([`check_kind`]) rather than a closure
/// per kind: each closure handed to the checker is a copy of its generic code, and this way there
/// is one.
macro_rules! kinds {
    ($(
        #[doc = $doc:expr]
        $variant:ident $json:literal $field:ident : $module:ident :: $source:ident $(, patch $patch:ty)?;
    )*) => {
        $(
            mod $module;
            pub use $module::*;
        )*

        open_enum! {
            /// A source kind: the name of a sub-object of `source`.
            pub enum SourceKind {
                $(
                    #[doc = $doc]
                    $variant => $json,
                )*
            }
        }

        impl SourceKind {
            /// Whether pipes of this kind are database pipes: their tables come from their table
            /// mappings, so their destination names no `table`, `managedTable` or columns
            /// (`PipeMutateDestination.table`: "Required field for all pipe types except database
            /// pipes (Postgres, MySQL, BigQuery)"; MongoDB's collections map to tables the same
            /// way).
            pub fn is_database(&self) -> bool {
                match self {
                    $( SourceKind::$variant => <$source as Kind>::DATABASE, )*
                    SourceKind::Unrecognized(_) => false,
                }
            }

            /// The `format`s the contract allows for this kind; `None` for a kind without a
            /// format (Postgres) or one this crate does not know.
            pub(crate) fn formats(&self) -> Option<Allowed<DataFormat>> {
                let (owner, values) = match self {
                    $( SourceKind::$variant => ($json, <$source as Kind>::FORMATS), )*
                    SourceKind::Unrecognized(_) => return None,
                };
                values.map(|values| Allowed { owner, values })
            }

            /// The `authentication`s the contract's enum has for this kind (the Kafka and object
            /// storage types each allow fewer: [`KafkaType::authentications`],
            /// [`ObjectStorageType::authentications`]); `None` for a kind without one or one
            /// this crate does not know.
            pub(crate) fn authentications(&self) -> Option<Allowed<Authentication>> {
                let (owner, values) = match self {
                    $( SourceKind::$variant => ($json, <$source as Kind>::AUTHENTICATIONS), )*
                    SourceKind::Unrecognized(_) => return None,
                };
                values.map(|values| Allowed { owner, values })
            }

            /// What an update can say of this kind; `None` for a kind the contract has no update
            /// of (BigQuery: it changes only by a replacement) or one this crate does not know.
            pub fn patch_schema(&self) -> Option<PatchSchema> {
                match self {
                    $( SourceKind::$variant => kinds!(@schema $($patch)?), )*
                    SourceKind::Unrecognized(_) => None,
                }
            }
        }

        model! {
            /// A pipe's `source`: exactly one source kind is set. Each kind is boxed, so a `Pipe`
            /// stays small whichever kind it has (lists move and copy less while decoding). A
            /// request makes one from a kind with `From` (`PipeSource::from(kafka)`), which
            /// [`CreatePipeRequest::new`](crate::CreatePipeRequest::new) does itself.
            pub struct PipeSource {
                $(
                    #[doc = $doc]
                    $json $field: Box<$source>,
                )*
                /// Whether the service also checks samples of the data, not only the connection,
                /// before creating (no effect on database pipes).
                "validateSamples" validate_samples: bool,
            }
        }

        // A source of one kind, so that a create request takes the kind itself:
        // `CreatePipeRequest::new("orders", KafkaSource::new(..), destination)`.
        $(
            impl From<$source> for PipeSource {
                fn from(source: $source) -> Self {
                    PipeSource { $field: Some(Box::new(source)), ..Default::default() }
                }
            }
        )*

        impl PipeSource {
            /// The kinds this crate models, each with whether it is present.
            fn modelled_kinds(&self) -> impl Iterator<Item = (bool, SourceKind)> {
                [$( (self.$field.is_some(), SourceKind::$variant), )*].into_iter()
            }

            /// Checks each kind present by its own rules, at its name.
            pub(crate) fn check_kinds(&self, c: &mut Checker<'_>) {
                $(
                    if let Some(kind) = self.$field.as_deref() {
                        check_kind(c, $json, kind);
                    }
                )*
            }
        }

        model! {
            /// `source` in an update (`PipePatchSource`): at most the one kind the pipe has.
            pub struct PipeSourcePatch {
                $($(
                    #[doc = $doc]
                    $json $field: $patch,
                )?)*
                /// Check samples of the data, not only the connection (no effect on database
                /// pipes).
                "validateSamples" validate_samples: bool,
            }
        }

        impl PipeSourcePatch {
            /// How many kinds the update edits: those set (a kind sent as `null` edits nothing),
            /// and any other object-valued member (a newer server's kind).
            pub(crate) fn kind_count(&self) -> usize {
                let newer = self.unknown.iter().filter(|(_, raw)| raw.trim_start().starts_with('{')).count();
                newer $($( + usize::from(self.$field.as_ref().and_then(<$patch as PatchSlot>::patch).is_some()) )?)*
            }

            /// Checks each kind set by its update's rules, at its name.
            pub(crate) fn check_kinds(&self, c: &mut Checker<'_>) {
                $($(
                    if let Some(patch) = self.$field.as_ref().and_then(<$patch as PatchSlot>::patch) {
                        check_kind(c, $json, patch);
                    }
                )?)*
            }
        }
    };
    (@schema) => {
        None
    };
    (@schema $patch:ty) => {
        Some(PatchSchema {
            members: <<$patch as PatchSlot>::Patch>::FIELDS,
            settings: <<$patch as PatchSlot>::Patch as KindPatch>::SETTINGS,
            required: <<$patch as PatchSlot>::Patch as KindPatch>::REQUIRED,
        })
    };
}

kinds! {
    /// Kafka-style streaming.
    Kafka "kafka" kafka: kafka::KafkaSource, patch Nullable<KafkaSourcePatch>;
    /// Object storage (S3, GCS, Azure Blob Storage, ...).
    ObjectStorage "objectStorage" object_storage: object_storage::ObjectStorageSource,
        patch Nullable<ObjectStorageSourcePatch>;
    /// Kinesis-style streaming.
    Kinesis "kinesis" kinesis: kinesis::KinesisSource, patch Nullable<KinesisSourcePatch>;
    /// Postgres replication.
    Postgres "postgres" postgres: postgres::PostgresSource, patch PostgresSourcePatch;
    /// Google Pub/Sub.
    PubSub "pubsub" pubsub: pubsub::PubSubSource, patch Nullable<PubSubSourcePatch>;
    /// MySQL replication.
    Mysql "mysql" mysql: mysql::MySqlSource, patch Nullable<MySqlSourcePatch>;
    /// MongoDB replication.
    MongoDb "mongodb" mongodb: mongodb::MongoDbSource, patch Nullable<MongoDbSourcePatch>;
    /// A BigQuery snapshot.
    BigQuery "bigquery" bigquery: bigquery::BigQuerySource;
}

impl PipeSource {
    /// The source kinds present: those this crate models, then any other object-valued field
    /// (a kind of a newer server).
    pub fn kinds(&self) -> Vec<SourceKind> {
        self.each_kind().collect()
    }

    /// How many source kinds are present (what [`PipeSource::kinds`] counts, without a list).
    pub(crate) fn kind_count(&self) -> usize {
        self.each_kind().count()
    }

    fn each_kind(&self) -> impl Iterator<Item = SourceKind> + '_ {
        self.modelled_kinds().filter(|(present, _)| *present).map(|(_, kind)| kind).chain(
            self.unknown
                .iter()
                .filter(|(_, raw)| raw.trim_start().starts_with('{'))
                .map(|(name, _)| SourceKind::from(name)),
        )
    }

    /// The source kind, when exactly one is present.
    pub fn kind(&self) -> Option<SourceKind> {
        let mut kinds = self.kinds();
        (kinds.len() == 1).then(|| kinds.remove(0))
    }
}

/// Checks one kind (of a source or of an update) at its name: one copy of the checker's generic
/// code for every kind.
fn check_kind(c: &mut Checker<'_>, name: &'static str, kind: &dyn Check) {
    c.field(name, |c| kind.check(c));
}
