//! The three shapes every model of this crate is made of, written once.
//!
//! * [`model!`]: a JSON object with known fields (each read through its serde form, or a codec
//!   module named with `as`) and every other field kept verbatim in [`UnknownFields`].
//!   Hand-rolled `Deserialize` instead of `#[serde(flatten)]`, because flatten buffers each
//!   object into an intermediate tree first, which costs about as much as decoding into
//!   `serde_json::Value`.
//! * [`open_enum!`]: a string enum that the server owns: known values are variants, any other
//!   text is kept in `Unrecognized` and written back unchanged.
//! * [`uuid_id!`]: a UUID newtype, so that one kind of id cannot stand for another.
//!
//! [`UnknownFields`]: crate::UnknownFields

/// Reads the value of the member `$name` from the object being read (`$map`) into its field:
/// through the type's [`Field`](crate::codec::Field) impl unless the field names a codec with
/// `as`, then through that codec's seed ([`next_field`](crate::codec::next_field)).
///
/// Why a seed per field type (or codec) rather than per field: every generic step between the
/// object and the value (serde_json's, and proto's budgeted reader's) is compiled once per seed
/// type, and a model's fields share a few dozen types and five codecs among hundreds of fields.
macro_rules! next_field_value {
    ([] $map:ident, $ty:ty, $name:expr, $unknown:ident) => {
        $crate::codec::next_field::<$ty, _>(&mut $map, $name, &mut $unknown)
    };
    ([$codec:path] $map:ident, $ty:ty, $name:expr, $unknown:ident) => {{
        use $codec as codec;
        $crate::codec::next_codec_field::<codec::Codec, _>(&mut $map, $name, &mut $unknown)
    }};
}

/// Writes a field's entry into the object being written (`map`): its type's own serde form
/// unless the field names a codec with `as` (one instance per field type or codec, as above).
macro_rules! serialize_field {
    ([] $map:ident, $json:expr, $ty:ty, $value:ident) => {
        $map.serialize_entry($json, $value)?
    };
    ([$codec:path] $map:ident, $json:expr, $ty:ty, $value:ident) => {{
        use $codec as codec;
        $map.serialize_entry($json, &$crate::codec::Written::<codec::Codec>($value))?
    }};
}

/// What a field takes, in words: its codec's `EXPECTED`, or the type's own for the default.
macro_rules! field_expected {
    ([] $ty:ty) => {
        $crate::codec::plain::expected::<$ty>()
    };
    ([$codec:path] $ty:ty) => {{
        use $codec as codec;
        codec::EXPECTED
    }};
}

/// The name a field is written under: its JSON name, or its other name when the object came
/// with its fields under their other names (`"engineVersion" | "clickhouseVersion"`).
macro_rules! field_name {
    ($self:ident $json:literal) => {
        $json
    };
    ($self:ident $json:literal $other:literal) => {
        if $self.unknown.other_names() { $other } else { $json }
    };
}

/// Declares a JSON object model. Fields are written `"jsonName" rust_name: Type [as codec]`
/// and are all optional (the spec marks no response field as required), except a leading
/// `required` one: the object's own id, without which it means nothing. A model with a
/// required field gets `new(id)`, the others `Default`. A field that servers name two ways is
/// written `"jsonName" | "otherName" rust_name: Type`: both are read, and it is written back
/// under the name received.
macro_rules! model {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(#[doc = $rdoc:expr])*
            required $rjson:literal $rfield:ident : $rty:ty,
            $(
                $(#[doc = $fdoc:expr])*
                $json:literal $(| $other:literal)? $field:ident : $ty:ty $(as $codec:path)?
            ),* $(,)?
        }
    ) => {
        model!(@impl $(#[$meta])* $name
            [$(#[doc = $rdoc])* $rjson $rfield : $rty]
            [$($(#[doc = $fdoc])* $json [$($other)?] $field : $ty [$($codec)?]),*]);

        impl $name {
            #[doc = concat!("A `", stringify!($name), "` with its `", $rjson, "` set and nothing else.")]
            pub fn new($rfield: $rty) -> Self {
                $name { $rfield, $($field: None,)* unknown: $crate::UnknownFields::new() }
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:expr])*
                $json:literal $(| $other:literal)? $field:ident : $ty:ty $(as $codec:path)?
            ),* $(,)?
        }
    ) => {
        model!(@impl $(#[$meta])* $name []
            [$($(#[doc = $fdoc])* $json [$($other)?] $field : $ty [$($codec)?]),*]);

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: None,)* unknown: $crate::UnknownFields::new() }
            }
        }
    };
    (@impl
        $(#[$meta:meta])* $name:ident
        [$($(#[doc = $rdoc:expr])* $rjson:literal $rfield:ident : $rty:ty)?]
        [$($(#[doc = $fdoc:expr])* $json:literal [$($other:literal)?] $field:ident : $ty:ty [$($codec:path)?]),*]
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[doc = $rdoc])*
                #[doc = concat!("\n\nJSON name: `", $rjson, "` (required).")]
                pub $rfield: $rty,
            )?
            $(
                $(#[doc = $fdoc])*
                #[doc = concat!("\n\nJSON name: `", $json, "`.")]
                $( #[doc = concat!(" Also read as `", $other, "`, and written back under the name received.")] )?
                pub $field: Option<$ty>,
            )*
            /// Fields this crate does not model, kept as received so that a value read and
            /// written back loses nothing.
            pub unknown: $crate::UnknownFields,
        }

        // Setters named after the fields, because the struct is `#[non_exhaustive]` and so
        // cannot be written as a literal outside this crate:
        // `KafkaSource::default().brokers("b:9092").topics("events")`. Generic over the form
        // of the value, which only a list has more than one of (see `IntoField`).
        impl $name {
            /// The JSON names of the fields this model has, in order (what an update can
            /// change, for a patch model).
            pub const FIELDS: &'static [&'static str] = &[$($rjson,)? $($json),*];

            $(
                #[doc = concat!("Sets `", $json, "`.")]
                #[must_use]
                pub fn $field<Form>(mut self, value: impl $crate::IntoField<$ty, Form>) -> Self {
                    self.$field = Some(value.into_field());
                    self
                }
            )*
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap as _;
                let mut map = serde::Serializer::serialize_map(serializer, None)?;
                $( map.serialize_entry($rjson, &self.$rfield)?; )?
                $(
                    if let Some(value) = &self.$field {
                        serialize_field!([$($codec)?] map, field_name!(self $json $($other)?), $ty, value);
                    }
                )*
                // A kept value that did not fit its field is written back, unless the field
                // has been given a value since (then that value is the field's).
                self.unknown.serialize_entries(&mut map, &|name| match name {
                    $( $json $(| $other)? => self.$field.is_some(), )*
                    _ => false,
                })?;
                map.end()
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct ObjectVisitor;

                impl<'de> serde::de::Visitor<'de> for ObjectVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " object"))
                    }

                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        $( let mut $rfield: Option<$rty> = None; )?
                        $( let mut $field: Option<$ty> = None; )*
                        let mut unknown = $crate::UnknownFields::new();
                        // A repeated name: the last one counts, as JSON readers do.
                        while let Some(key) = map.next_key::<$crate::unknown::FieldName<'de>>()? {
                            match key.as_str() {
                                $( $rjson => $rfield = map.next_value()?, )?
                                // Members newer than this crate, written so on purpose.
                                $crate::unknown::NOT_YET_KNOWN => $crate::codec::next_not_yet_known(&mut map, &mut unknown)?,
                                $(
                                    $json $(| $other)? => {
                                        $( if key.as_str() == $other { unknown.mark_other_names(); } )?
                                        $field = next_field_value!([$($codec)?] map, $ty, key.as_str(), unknown)?;
                                    }
                                )*
                                _ => $crate::codec::next_unknown(&mut map, key.as_str(), &mut unknown)?,
                            }
                        }
                        Ok($name {
                            $(
                                $rfield: match $rfield {
                                    Some(value) => value,
                                    None => return Err(serde::de::Error::missing_field($rjson)),
                                },
                            )?
                            $( $field, )*
                            unknown,
                        })
                    }
                }

                deserializer.deserialize_map(ObjectVisitor)
            }
        }

        impl $crate::IntoField<$name> for $name {
            fn into_field(self) -> $name {
                self
            }
        }

        impl $crate::Vouch for $name {
            fn vouch(&mut self) {
                $( $crate::Vouch::vouch(&mut self.$rfield); )?
                $( $crate::Vouch::vouch(&mut self.$field); )*
                self.unknown.vouch();
            }
        }

        impl $crate::validate::CheckMembers for $name {
            fn check_members(&self, c: &mut $crate::validate::Checker<'_>) {
                $( c.member($json, &self.$field); )*
                c.unvouched(&self.unknown, Self::FIELDS, &|name| match name {
                    $( $json $(| $other)? => Some(field_expected!([$($codec)?] $ty)), )*
                    _ => None,
                });
            }
        }

        /// A field of this type: an object; anything else is kept.
        impl $crate::codec::Field for $name {
            const EXPECTED: &'static str = "an object";

            $crate::codec::composite_reading!();

            fn from_map<'de, A: serde::de::MapAccess<'de>>(map: A) -> Result<$crate::codec::Read<Self>, A::Error> {
                $crate::codec::object_from_map(map)
            }
        }
    };
}

/// Declares an open string enum: `Variant => "wire text"`.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[doc = $vdoc:expr])*
                $variant:ident => $text:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        ///
        /// Values this crate does not know are read into `Unrecognized`, kept, shown and written
        /// back unchanged; reading never fails on a new value.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $(
                $(#[doc = $vdoc])*
                #[doc = concat!("\n\nWire text: `", $text, "`.")]
                $variant,
            )*
            /// A value this crate does not know yet, kept verbatim.
            Unrecognized($crate::Unrecognized),
        }

        impl $name {
            /// Every value this crate knows, in declaration order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),*];

            /// The text the server uses for this value.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $text, )*
                    $name::Unrecognized(other) => other.as_str(),
                }
            }

            /// Whether this value is one this crate knows.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Unrecognized(_))
            }

            /// A value newer than this crate, sent on purpose: the one way to put a value this
            /// crate does not know into a request (text parsed with `From`/`FromStr` that is not
            /// a known value is refused by validation, as a likely typo). A known text gives its
            /// variant.
            pub fn not_yet_known(text: &str) -> Self {
                match text {
                    $( $text => $name::$variant, )*
                    _ => $name::Unrecognized($crate::Unrecognized::vouched(text)),
                }
            }

        }

        impl $crate::Vouch for $name {
            fn vouch(&mut self) {
                if let $name::Unrecognized(other) = self {
                    other.vouch();
                }
            }
        }

        // Whether its value may be sent is each request's own rule (`Checker::known`).
        impl $crate::validate::CheckMembers for $name {
            fn check_members(&self, _: &mut $crate::validate::Checker<'_>) {}
        }

        impl $crate::validate::OpenEnum for $name {
            fn may_be_sent(&self) -> bool {
                match self {
                    $name::Unrecognized(other) => other.is_vouched_for(),
                    _ => true,
                }
            }

            fn known_texts() -> Vec<&'static str> {
                vec![$($text),*]
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                match text {
                    $( $text => $name::$variant, )*
                    other => $name::Unrecognized($crate::Unrecognized::new(other)),
                }
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                match text.as_str() {
                    $( $text => $name::$variant, )*
                    _ => $name::Unrecognized($crate::Unrecognized::new(text)),
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Ok($name::from(text))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct TextVisitor;

                impl serde::de::Visitor<'_> for TextVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " string"))
                    }

                    // Read from JSON, a server's or a user's file alike: an unknown value is kept,
                    // and a request refuses it unless vouched for (a typo such as "PLAN" is
                    // caught); what proto decodes from a server is vouched for (`Vouch`).
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$name, E> {
                        Ok($name::from(text))
                    }
                }

                deserializer.deserialize_str(TextVisitor)
            }
        }

        impl $crate::IntoField<$name> for $name {
            fn into_field(self) -> $name {
                self
            }
        }

        impl $crate::IntoField<$name> for &str {
            fn into_field(self) -> $name {
                $name::from(self)
            }
        }

        /// A field of this type: any text (not vouched for: see the `Deserialize` impl);
        /// anything else is kept.
        impl $crate::codec::Field for $name {
            const EXPECTED: &'static str = "a string";

            fn from_text(text: &str) -> Option<Self> {
                Some($name::from(text))
            }
        }
    };
}

/// Declares a UUID id newtype.
macro_rules! uuid_id {
    ($(#[$meta:meta])* pub struct $name:ident;) => {
        $(#[$meta])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(uuid::Uuid);

        impl $name {
            /// Wraps a UUID.
            pub const fn from_uuid(uuid: uuid::Uuid) -> Self {
                $name(uuid)
            }

            /// The UUID inside.
            pub const fn as_uuid(&self) -> &uuid::Uuid {
                &self.0
            }
        }

        impl $crate::IntoField<$name> for $name {
            fn into_field(self) -> $name {
                self
            }
        }

        /// A field of this type: text that is a UUID; anything else is kept.
        impl $crate::codec::Field for $name {
            const EXPECTED: &'static str = "a UUID string";

            fn from_text(text: &str) -> Option<Self> {
                uuid::Uuid::try_parse(text).ok().map($name)
            }
        }

        impl From<uuid::Uuid> for $name {
            fn from(uuid: uuid::Uuid) -> Self {
                $name(uuid)
            }
        }

        impl From<$name> for uuid::Uuid {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::IdError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                uuid::Uuid::try_parse(text)
                    .map($name)
                    .map_err(|_| $crate::IdError::new(stringify!($name), text))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0.hyphenated(), f)
            }
        }
    };
}
