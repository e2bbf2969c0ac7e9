//! The direct reader against serde, differentially: whatever text the reader takes as a model,
//! serde takes too and reads to the same JSON. A disagreement or a panic is a finding.
//!
//! ```sh
//! cargo fuzz run reader_agrees             # from the repository root
//! ```

#![no_main]

use libfuzzer_sys::fuzz_target;
use pipe_api_types::read::{FromJson, read_str};
use pipe_api_types::{Alert, CreateKeyResponse, Pipe, ReversePrivateEndpoint, Service};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn agrees<T: FromJson + DeserializeOwned + Serialize>(text: &str) {
    if let Ok(direct) = read_str::<T>(text) {
        let by_serde: T = serde_json::from_str(text).expect("the direct reader took what serde refuses");
        assert_eq!(
            serde_json::to_string(&direct).expect("writes"),
            serde_json::to_string(&by_serde).expect("writes"),
            "the direct reader and serde disagree"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    agrees::<Pipe>(text);
    agrees::<Vec<Pipe>>(text);
    agrees::<Service>(text);
    agrees::<CreateKeyResponse>(text);
    agrees::<Vec<ReversePrivateEndpoint>>(text);
    agrees::<Vec<Alert>>(text);
});
