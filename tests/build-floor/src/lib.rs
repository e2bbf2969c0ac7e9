//! Uses each dependency once, so that the floor links what the client links.

/// A request made and a body read with every dependency of the floor.
pub fn touch(body: &str) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    use base64::Engine as _;

    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let request = http::Request::get("https://example.com").body(())?;
    let _ = (agent, request, uuid::Uuid::nil(), time::OffsetDateTime::UNIX_EPOCH);
    let named: Named = serde_json::from_str(body)?;
    Ok(serde_json::Value::String(base64::engine::general_purpose::STANDARD.encode(named.name)))
}
