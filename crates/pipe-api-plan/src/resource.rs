//! The resources a plan manages, by kind and name, and the ids its requests name.

use std::fmt;

use crate::shown::truncate;

/// The kind of a resource a plan manages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A service of the organization, named by its `name`.
    Service,
    /// A reverse private endpoint, named by its `description`.
    ReversePrivateEndpoint,
    /// A pipe, named by its `name`.
    Pipe,
    /// An alert, named by its `name`.
    Alert,
}

impl Kind {
    /// Every kind, in the order a plan takes them.
    pub(crate) const ALL: [Kind; 4] = [Kind::Service, Kind::ReversePrivateEndpoint, Kind::Pipe, Kind::Alert];

    /// How the kind reads in text.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Service => "service",
            Kind::ReversePrivateEndpoint => "reverse private endpoint",
            Kind::Pipe => "pipe",
            Kind::Alert => "alert",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A resource, by kind and name, and, for a reverse private endpoint or a pipe declared under a
/// service of the desired state, that service's name (the same name may then stand under two
/// services). `Debug` cuts the names as `Display` does.
#[derive(Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Resource {
    /// Its kind.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// The name of the service it is under, in a desired state that declares services; `None`
    /// in one of a single service (whose id the plan names) and for services and alerts.
    pub service: Option<String>,
}

impl Resource {
    /// The resource of `kind` named `name`, under no declared service.
    pub fn new(kind: Kind, name: impl Into<String>) -> Self {
        Resource { kind, name: name.into(), service: None }
    }

    /// The same resource, under the declared service named `service`.
    #[must_use]
    pub fn under(mut self, service: Option<&str>) -> Self {
        self.service = service.map(str::to_owned);
        self
    }
}

/// The most of a name a message shows (a server's names are not bounded).
pub(crate) const NAME_SHOWN: usize = 128;

impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = truncate(&self.name, NAME_SHOWN);
        let mut debug = f.debug_struct("Resource");
        debug.field("kind", &self.kind).field("name", &name);
        if let Some(service) = &self.service {
            debug.field("service", &truncate(service, NAME_SHOWN));
        }
        debug.finish()
    }
}

/// `pipe "orders"`; `pipe "orders" of service "production"` under a declared service.
impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.kind, truncate(&self.name, NAME_SHOWN))?;
        if let Some(service) = &self.service {
            write!(f, " of service {:?}", truncate(service, NAME_SHOWN))?;
        }
        Ok(())
    }
}

/// An id in a planned request: known, or that of a resource an earlier step creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Id {
    Known(String),
    CreatedBy(Resource),
}

impl Id {
    /// How the id reads in a rendered plan.
    pub(crate) fn shown(&self) -> String {
        match self {
            Id::Known(id) => id.clone(),
            Id::CreatedBy(resource) => placeholder(resource),
        }
    }
}

/// What stands for the id of a resource created by an earlier step, in a path or a body.
pub(crate) fn placeholder(resource: &Resource) -> String {
    format!("{{id of {resource}}}")
}
