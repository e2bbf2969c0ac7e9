//! [`Vouch`]: what a server sent may be sent back. A value this crate does not know (an open
//! enum's `Unrecognized`) is refused in a request unless vouched for, because text a user wrote,
//! or a JSON file holds, that this crate does not know (`"PLAN"`) is almost always a typo. A
//! value decoded from a server's answer (proto vouches for every output it decodes) or built
//! with an enum's `not_yet_known` is vouched for.

use time::{OffsetDateTime, PrimitiveDateTime};

use crate::quantity::{Quantity, Unit};
use crate::{AlertId, KeyId, OrganizationId, PipeId, ReversePrivateEndpointId, RoleId, Secret, ServiceId, Text};

/// Vouches for every value this crate does not know, anywhere in a model: for a value a server
/// sent, so that a request may carry it back. Implemented by every model, open enum, list and
/// field type.
pub trait Vouch {
    /// Vouches for every unrecognized value in `self`.
    fn vouch(&mut self);
}

/// Types that hold no open enum.
macro_rules! nothing_to_vouch_for {
    ($($ty:ty),* $(,)?) => {
        $(impl Vouch for $ty {
            fn vouch(&mut self) {}
        }

        impl crate::validate::CheckMembers for $ty {
            fn check_members(&self, _: &mut crate::validate::Checker<'_>) {}
        })*
    };
}

nothing_to_vouch_for!(
    (),
    u8,
    crate::KeyExpiry,
    crate::ScalingScheduleEntryId,
    Text,
    bool,
    u16,
    u32,
    u64,
    i64,
    f64,
    OffsetDateTime,
    PrimitiveDateTime,
    Secret,
    OrganizationId,
    ServiceId,
    PipeId,
    KeyId,
    RoleId,
    ReversePrivateEndpointId,
    AlertId,
    serde_json::Value,
);

impl<U: Unit> Vouch for Quantity<U> {
    fn vouch(&mut self) {}
}

impl<U: Unit> crate::validate::CheckMembers for Quantity<U> {
    fn check_members(&self, _: &mut crate::validate::Checker<'_>) {}
}

impl<T: Vouch> Vouch for Vec<T> {
    fn vouch(&mut self) {
        self.iter_mut().for_each(Vouch::vouch);
    }
}

impl<T: Vouch> Vouch for Option<T> {
    fn vouch(&mut self) {
        if let Some(value) = self {
            value.vouch();
        }
    }
}

impl<T: Vouch> Vouch for Box<T> {
    fn vouch(&mut self) {
        (**self).vouch();
    }
}

impl<T: Vouch> Vouch for crate::ListPatch<T> {
    fn vouch(&mut self) {
        self.add.vouch();
        self.remove.vouch();
        self.unknown.vouch();
    }
}

impl<T: crate::validate::CheckMembers> crate::validate::CheckMembers for crate::ListPatch<T> {
    fn check_members(&self, c: &mut crate::validate::Checker<'_>) {
        c.field("add", |c| self.add.check_members(c));
        c.field("remove", |c| self.remove.check_members(c));
        c.unvouched(&self.unknown, &["add", "remove"], &|name| matches!(name, "add" | "remove").then_some("a list"));
    }
}
