//! [`SavedPlan`]: a plan kept as a file, reviewed, and applied later only if what it touches is
//! still as it was when planned.
//!
//! A saved plan holds no secret, so it cannot be applied by itself: its requests are made again
//! from the same desired state (read with its lookup at apply time) and the service as it is
//! then, and applied only if they are the saved ones. Before that, each resource the plan
//! touches is compared with its fingerprint, taken when planned, so that a change is named.

use std::fmt;

use pipe_api_types::{OrganizationId, ServiceId};
use serde_json::{Map, Value, json};

use crate::current::Current;
use crate::current::{Change, Record, Seen};
use crate::desired::DesiredState;
use crate::planned::{Plan, PlanOptions, step_json};
use crate::planner::{PlanError, plan, plan_organization};
use crate::resource::{Kind, Resource};
use crate::shown::Sorted;

/// The version of the saved-plan format this crate writes and reads.
const FORMAT: u64 = 1;

/// A [`Plan`] kept as a file ([`Plan::saved`], then `Display` or [`SavedPlan::to_json`]),
/// read back with [`SavedPlan::from_json`], and applied later through
/// [`SavedPlan::confirm`], which refuses it if the service changed since.
///
/// It holds what the plan's JSON shows (every secret, and every value the desired state's
/// lookup gave, `[redacted]`), the [`PlanOptions`] it was made with, and a fingerprint of each
/// resource it touches as the server had it when planned (its id, its `state` or `status`,
/// and a digest of each other member, timestamps left out; an alert's definition only). No
/// secret is in it, so it cannot send one: [`SavedPlan::confirm`] takes the same desired state
/// again, read with its lookup at apply time, and makes the requests from it.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedPlan {
    organization_id: OrganizationId,
    /// `None` for a plan of the organization's services.
    service_id: Option<ServiceId>,
    options: PlanOptions,
    steps: Vec<Value>,
    notes: Vec<String>,
    seen: Vec<Seen>,
}

impl Plan {
    /// The plan as a file to keep and apply later ([`SavedPlan`]): no secret is in it.
    pub fn saved(&self) -> SavedPlan {
        let steps = self.steps.iter().map(|step| self.scrubbed(step_json(step, &step.resource.name))).collect();
        SavedPlan {
            organization_id: self.organization_id,
            service_id: self.service_id,
            options: self.options.clone(),
            steps,
            notes: self.notes.clone(),
            seen: self.seen.clone(),
        }
    }

    fn scrubbed(&self, mut json: Value) -> Value {
        self.resolved.scrub_json(&mut json);
        json
    }
}

impl SavedPlan {
    /// The service it was planned for; `None` for a plan of the organization's services.
    pub fn service_id(&self) -> Option<ServiceId> {
        self.service_id
    }

    /// The organization of the service.
    pub fn organization_id(&self) -> OrganizationId {
        self.organization_id
    }

    /// Refuses, before anything is read or sent, a plan made for another service than
    /// `service_id` of `organization_id` (`None`: the organization's services)
    /// ([`SavedPlanError::OtherService`]); [`confirm`] checks it first too.
    ///
    /// [`confirm`]: SavedPlan::confirm
    pub fn is_for(&self, organization_id: OrganizationId, service_id: Option<ServiceId>) -> Result<(), SavedPlanError> {
        if (organization_id, service_id) == (self.organization_id, self.service_id) {
            return Ok(());
        }
        Err(SavedPlanError::OtherService {
            planned: (self.organization_id, self.service_id),
            given: (organization_id, service_id),
        })
    }

    /// The options it was planned with (and is planned with again when applied).
    pub fn options(&self) -> &PlanOptions {
        &self.options
    }

    /// Whether it has no step.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether confirming it needs every alert read: it touches one, or its desired state may.
    pub fn needs_alerts(&self) -> bool {
        self.options.prune_alerts || self.seen.iter().any(|seen| seen.resource.kind == Kind::Alert)
    }

    /// The file: `{"savedPlan": 1, "organizationId", "serviceId", "options", "steps", "notes",
    /// "seen"}`, each step as [`Plan::to_json`] writes it (a name in full).
    pub fn to_json(&self) -> Value {
        let seen: Vec<Value> = self
            .seen
            .iter()
            .map(|seen| {
                let records: Vec<Value> = seen
                    .records
                    .iter()
                    .map(|r| json!({"id": r.id, "lifecycle": r.lifecycle, "digests": r.digests}))
                    .collect();
                let mut json =
                    json!({"kind": seen.resource.kind.as_str(), "name": seen.resource.name, "records": records});
                if let Some(service) = &seen.resource.service {
                    json["service"] = json!(service);
                }
                json
            })
            .collect();
        json!({
            "savedPlan": FORMAT,
            "organizationId": self.organization_id.to_string(),
            "serviceId": self.service_id.map(|id| id.to_string()),
            "options": {
                "allowReplacement": self.options.allow_replacement,
                "prune": self.options.prune,
                "pruneAlerts": self.options.prune_alerts,
            },
            "steps": self.steps,
            "notes": self.notes,
            "seen": seen,
        })
    }

    /// Reads a saved plan strictly: a member it does not know, a missing one or a value of
    /// another type is refused at its whole path (`steps[0].resource.nmae`). The file is read
    /// within the budget every answer is read within
    /// ([`read_json_document`](pipe_api_proto::read_json_document)): whatever its shape, it
    /// costs a small multiple of its size, or is refused.
    pub fn from_json(text: &str) -> Result<Self, SavedPlanError> {
        let value = pipe_api_proto::read_json_document(text).map_err(|error| {
            let message = if error.message.contains("would decode into more than") {
                error.message
            } else {
                format!("not JSON: {}", error.message)
            };
            malformed(&error.path, message)
        })?;
        let root = Strict { value: &value, path: String::new() };
        root.object(&["savedPlan", "organizationId", "serviceId", "options", "steps", "notes", "seen"])?;
        let format = root.field("savedPlan")?;
        if format.value.as_u64() != Some(FORMAT) {
            return Err(malformed("savedPlan", format!("must be {FORMAT}, the version this crate reads")));
        }
        let options = root.field("options")?;
        options.object(&["allowReplacement", "prune", "pruneAlerts"])?;
        let options = PlanOptions {
            allow_replacement: options.field("allowReplacement")?.boolean()?,
            prune: options.field("prune")?.boolean()?,
            prune_alerts: options.field("pruneAlerts")?.boolean()?,
        };
        let steps = root.field("steps")?.list()?;
        let steps = steps
            .iter()
            .map(|step| {
                let fields = ["operation", "method", "path", "resource", "reason", "destructive", "then", "body"];
                let object = step.object(&fields)?;
                object.field("resource")?.object(&["kind", "name", "service"])?.resource()?;
                Ok(step.value.clone())
            })
            .collect::<Result<_, SavedPlanError>>()?;
        let notes = root
            .field("notes")?
            .list()?
            .iter()
            .map(|note| note.text().map(crate::shown::cut))
            .collect::<Result<_, _>>()?;
        let seen = root.field("seen")?.list()?;
        let seen = seen
            .iter()
            .map(|seen| {
                let object = seen.object(&["kind", "name", "service", "records"])?;
                let resource = object.resource()?;
                let records = object.field("records")?.list()?;
                let records = records
                    .iter()
                    .map(|record| {
                        let record = record.object(&["id", "lifecycle", "digests"])?;
                        let lifecycle = record.field("lifecycle")?;
                        Ok(Record {
                            id: record.field("id")?.text()?,
                            lifecycle: if lifecycle.value.is_null() { None } else { Some(lifecycle.text()?) },
                            digests: record.field("digests")?.digests()?,
                        })
                    })
                    .collect::<Result<_, SavedPlanError>>()?;
                Ok(Seen { resource, records })
            })
            .collect::<Result<_, SavedPlanError>>()?;
        let id = |name: &str| -> Result<String, SavedPlanError> { root.field(name)?.text() };
        let organization_id =
            id("organizationId")?.parse().map_err(|_| malformed("organizationId", "must be a UUID"))?;
        // A plan of an organization's services is for none of them.
        let service_id = match root.field("serviceId")?.value {
            Value::Null => None,
            _ => Some(id("serviceId")?.parse().map_err(|_| malformed("serviceId", "must be a UUID or null"))?),
        };
        Ok(SavedPlan { organization_id, service_id, options, steps, notes, seen })
    }

    /// The plan to apply now, for the service `service_id` of `organization_id` with
    /// `desired` (the same desired state, read with its lookup) and `current` (read now):
    /// refused, before anything is sent, if the plan was made for another service, if a
    /// resource it touches changed since (each named, [`SavedPlanError::Stale`]), or if the
    /// plan made now is not the saved one (the desired state or another resource changed).
    pub fn confirm(
        &self,
        organization_id: OrganizationId,
        service_id: Option<ServiceId>,
        desired: &DesiredState,
        current: &Current,
    ) -> Result<Plan, SavedPlanError> {
        self.is_for(organization_id, service_id)?;
        let changes: Vec<Change> = self.seen.iter().filter_map(|seen| seen.change(current)).collect();
        if !changes.is_empty() {
            return Err(SavedPlanError::Stale(changes));
        }
        let now = match service_id {
            Some(service_id) => plan(organization_id, service_id, desired, current, &self.options),
            None => plan_organization(organization_id, desired, current, &self.options),
        };
        let now = now.map_err(SavedPlanError::Plan)?;
        let steps = now.saved().steps;
        if steps != self.steps {
            let at = steps.iter().zip(&self.steps).take_while(|(now, saved)| now == saved).count();
            let (saved, now) = (self.steps.get(at), steps.get(at));
            return Err(SavedPlanError::NotTheSaved {
                number: at + 1,
                saved: saved.map(summary),
                now: now.map(summary),
                difference: saved.zip(now).and_then(|(saved, now)| difference(saved, now, String::new())),
            });
        }
        Ok(now)
    }
}

/// The file, pretty, keys in order.
impl fmt::Display for SavedPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string_pretty(&Sorted(&self.to_json())).expect("a JSON value serializes");
        writeln!(f, "{text}")
    }
}

/// Where two steps' JSON first differ, with the two values: `body.command: "stop" -> "start"`
/// (each value cut).
fn difference(saved: &Value, now: &Value, path: String) -> Option<String> {
    match (saved, now) {
        _ if saved == now => None,
        (Value::Object(saved_members), Value::Object(now_members)) => {
            let mut names: Vec<&String> = saved_members.keys().chain(now_members.keys()).collect();
            names.sort();
            names.dedup();
            names.into_iter().find_map(|name| {
                let (saved, now) = (saved_members.get(name), now_members.get(name));
                let at = if path.is_empty() {
                    crate::shown::truncate(name, crate::resource::NAME_SHOWN).into_owned()
                } else {
                    format!("{path}.{}", crate::shown::truncate(name, crate::resource::NAME_SHOWN))
                };
                match (saved, now) {
                    (Some(saved), Some(now)) => difference(saved, now, at),
                    _ => Some(format!("{at}: {} -> {}", shown_value(saved), shown_value(now))),
                }
            })
        }
        (Value::Array(saved_items), Value::Array(now_items)) if saved_items.len() == now_items.len() => saved_items
            .iter()
            .zip(now_items)
            .enumerate()
            .find_map(|(index, (saved, now))| difference(saved, now, format!("{path}[{index}]"))),
        _ => {
            let path = if path.is_empty() { "the step".to_owned() } else { path };
            Some(format!("{path}: {} -> {}", shown_value(Some(saved)), shown_value(Some(now))))
        }
    }
}

/// A value of a step as a difference shows it: its JSON, cut; `none` when absent.
fn shown_value(value: Option<&Value>) -> String {
    match value {
        None => "none".to_owned(),
        Some(value) => crate::shown::truncate(&value.to_string(), 128).into_owned(),
    }
}

/// `update_pipe pipe "orders"`, from a step's JSON.
fn summary(step: &Value) -> String {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let resource = &step["resource"];
    format!(
        "{} {} {:?}",
        text(&step["operation"]),
        text(&resource["kind"]),
        crate::shown::truncate(&text(&resource["name"]), 128)
    )
}

/// Why a saved plan was not read, or not applied.
#[non_exhaustive]
pub enum SavedPlanError {
    /// The file is not a saved plan this crate reads: where (a JSON path) and what.
    Malformed {
        /// Its JSON path from the root (empty for the root).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// It was planned for another service (of its organization or of another), or for an
    /// organization's services and given one service (or the other way).
    OtherService {
        /// The organization and service it was planned for (`None`: its services).
        planned: (OrganizationId, Option<ServiceId>),
        /// The organization and service it was given to (`None`: its services).
        given: (OrganizationId, Option<ServiceId>),
    },
    /// A stale plan: resources it touches changed since it was planned, each named. Nothing
    /// was sent.
    Stale(Vec<Change>),
    /// The plan made now differs from the saved one (the desired state given is not the one
    /// planned, or a resource the plan did not touch changed): the first step that differs.
    /// Nothing was sent. Steps are compared as the saved plan shows them, every value the
    /// lookup gave `[redacted]`: a secret changed between the plan and the apply is sent as
    /// it is now, not refused.
    NotTheSaved {
        /// Its number, from 1.
        number: usize,
        /// The saved step (`update_pipe pipe "orders"`), if the saved plan has that many.
        saved: Option<String>,
        /// The step made now, if the plan made now has that many.
        now: Option<String>,
        /// Where the two steps first differ, with both values (`body.command: "stop" ->
        /// "start"`), when both are there.
        difference: Option<String>,
    },
    /// Planning again failed.
    Plan(PlanError),
    /// Reading the current state failed (a client that reads before it confirms).
    Read(pipe_api_proto::Error),
    /// The apply, once confirmed, failed.
    Apply(crate::outcome::ApplyError),
}

impl SavedPlanError {
    /// The changes of a stale plan (none for another error).
    pub fn changes(&self) -> &[Change] {
        match self {
            SavedPlanError::Stale(changes) => changes,
            _ => &[],
        }
    }
}

impl fmt::Display for SavedPlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::shown::shown(f, |f| self.render(f))
    }
}

impl SavedPlanError {
    /// The text `Display` shows, before it is cut.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SavedPlanError::Malformed { path, message } if path.is_empty() => write!(f, "saved plan: {message}"),
            SavedPlanError::Malformed { path, message } => write!(f, "saved plan: {path}: {message}"),
            SavedPlanError::OtherService { planned, given } => {
                let scope = |service: Option<ServiceId>| {
                    service.map_or_else(|| "its services".to_owned(), |service| format!("the service {service}"))
                };
                write!(
                    f,
                    "saved plan: planned for {} of the organization {}, not {} of {}",
                    scope(planned.1),
                    planned.0,
                    scope(given.1),
                    given.0
                )
            }
            SavedPlanError::Stale(changes) => {
                f.write_str("stale plan: ")?;
                for (index, change) in changes.iter().enumerate() {
                    if index > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{change}")?;
                }
                f.write_str(": plan again")
            }
            SavedPlanError::NotTheSaved { number, saved, now, difference } => {
                let shown = |step: &Option<String>| step.clone().unwrap_or_else(|| "none".to_owned());
                write!(
                    f,
                    "stale plan: the plan made now differs from the saved one at step {number} (saved: {}; now: {}",
                    shown(saved),
                    shown(now)
                )?;
                if let Some(difference) = difference {
                    write!(f, "; {difference}")?;
                }
                f.write_str("): the desired state or the service changed, plan again")
            }
            SavedPlanError::Plan(error) => write!(f, "saved plan: {error}"),
            SavedPlanError::Read(error) => write!(f, "saved plan: reading the current state failed: {error}"),
            SavedPlanError::Apply(error) => write!(f, "saved plan: {error}"),
        }
    }
}

/// Reads as the message, not a struct dump.
impl fmt::Debug for SavedPlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SavedPlanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SavedPlanError::Plan(error) => Some(error),
            SavedPlanError::Read(error) => Some(error),
            SavedPlanError::Apply(error) => Some(error),
            _ => None,
        }
    }
}

fn malformed(path: &str, message: impl Into<String>) -> SavedPlanError {
    SavedPlanError::Malformed { path: path.to_owned(), message: message.into() }
}

/// A value of the file at its path, read strictly.
struct Strict<'v> {
    value: &'v Value,
    path: String,
}

impl<'v> Strict<'v> {
    /// The path of `member` of this value: the member's name cut as a message shows a name
    /// (a file's names can be any size).
    fn at(&self, member: &str) -> String {
        let member = crate::shown::truncate(member, crate::resource::NAME_SHOWN);
        if self.path.is_empty() { member.into_owned() } else { format!("{}.{member}", self.path) }
    }

    /// The value, an object whose members are all among `fields`.
    fn object(&self, fields: &[&str]) -> Result<&Self, SavedPlanError> {
        let Value::Object(members) = self.value else { return Err(malformed(&self.path, "must be an object")) };
        if let Some(unknown) = members.keys().find(|key| !fields.contains(&key.as_str())) {
            return Err(malformed(&self.at(unknown), "is not a member of a saved plan"));
        }
        Ok(self)
    }

    /// The member `name`, which must be there.
    fn field(&self, name: &str) -> Result<Strict<'v>, SavedPlanError> {
        let value = self.value.get(name).ok_or_else(|| malformed(&self.at(name), "is required"))?;
        Ok(Strict { value, path: self.at(name) })
    }

    fn list(&self) -> Result<Vec<Strict<'v>>, SavedPlanError> {
        let items = self.value.as_array().ok_or_else(|| malformed(&self.path, "must be a list"))?;
        Ok(items.iter().enumerate().map(|(i, value)| Strict { value, path: format!("{}[{i}]", self.path) }).collect())
    }

    fn text(&self) -> Result<String, SavedPlanError> {
        self.value.as_str().map(str::to_owned).ok_or_else(|| malformed(&self.path, "must be a string"))
    }

    fn boolean(&self) -> Result<bool, SavedPlanError> {
        self.value.as_bool().ok_or_else(|| malformed(&self.path, "must be true or false"))
    }

    /// An object of digests: each a string.
    fn digests(&self) -> Result<Map<String, Value>, SavedPlanError> {
        let members = self.value.as_object().ok_or_else(|| malformed(&self.path, "must be an object"))?;
        if let Some((name, _)) = members.iter().find(|(_, digest)| !digest.is_string()) {
            return Err(malformed(&self.at(name), "must be a string"));
        }
        Ok(members.clone())
    }

    /// The `kind`, `name` and (under a declared service) `service` of an object.
    fn resource(&self) -> Result<Resource, SavedPlanError> {
        let kind = self.field("kind")?;
        let text = kind.text()?;
        let Some(kind) = Kind::ALL.into_iter().find(|known| known.as_str() == text) else {
            let names: Vec<String> = Kind::ALL.iter().map(|kind| format!("`{kind}`")).collect();
            return Err(malformed(&kind.path, format!("must be one of {}", names.join(", "))));
        };
        let service = match self.value.get("service") {
            None => None,
            Some(_) => Some(self.field("service")?.text()?),
        };
        Ok(Resource::new(kind, self.field("name")?.text()?).under(service.as_deref()))
    }
}
