//! Splits the typed decode of the 10,000-pipe list into its parts, to see where time goes.
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use pipe_api_tests::workloads::{self, Novelty};
use pipe_api_types::Pipe;

#[derive(serde::Deserialize)]
struct Envelope {
    result: Vec<Pipe>,
}

impl pipe_api_types::read::FromJson for Envelope {
    fn read_json(reader: &mut pipe_api_types::read::Reader<'_>) -> pipe_api_types::read::Read<Self> {
        let mut result = Vec::new();
        reader.object(|reader, key| {
            if key == "result" {
                result = pipe_api_types::read::FromJson::read_json(reader)?;
                Ok(())
            } else {
                reader.skip_value()
            }
        })?;
        Ok(Envelope { result })
    }
}

fn main() {
    let body = workloads::list_pipes_body(10_000, Novelty::KnownOnly);
    println!("size_of Pipe {}", std::mem::size_of::<Pipe>());
    let rounds = 20;
    let mut t = [std::time::Duration::ZERO; 8];
    let (org, service, _) = pipe_api_tests::ids();
    let operation = pipe_api_proto::ListPipes::new(org, service);
    for _ in 0..rounds {
        let copy = body.clone();
        let s = Instant::now();
        black_box(serde_json::from_slice::<serde::de::IgnoredAny>(&body).unwrap());
        t[0] += s.elapsed();
        let s = Instant::now();
        let text = String::from_utf8(copy).unwrap();
        t[1] += s.elapsed();
        let shared = Arc::new(text);
        let s = Instant::now();
        black_box(serde_json::from_str::<serde::de::IgnoredAny>(&shared).unwrap());
        t[2] += s.elapsed();
        let s = Instant::now();
        let decoded: Envelope = pipe_api_types::decode_shared(&shared, |json| serde_json::from_str(json)).unwrap();
        t[3] += s.elapsed();
        let s = Instant::now();
        assert_eq!(decoded.result.len(), 10_000);
        drop(black_box(decoded));
        t[4] += s.elapsed();
        let response = http::Response::builder().status(200).body(body.clone()).unwrap();
        let s = Instant::now();
        let pipes = pipe_api_proto::EndpointExt::parse_response(&operation, response).unwrap();
        assert_eq!(pipes.value.len(), 10_000);
        drop(black_box(pipes));
        t[5] += s.elapsed();
        let s = Instant::now();
        black_box(pipe_api_types::read::read_shared::<serde_json::Value>(&Arc::new(String::new())).ok());
        black_box(pipe_api_types::read::read_str::<pipe_api_types::read::Skipped>(&shared).unwrap());
        t[6] += s.elapsed();
        let s = Instant::now();
        let decoded: Envelope = pipe_api_types::read::read_shared(&shared).unwrap();
        t[7] += s.elapsed();
        drop(black_box(decoded));
    }
    for (name, d) in [
        "floor slice",
        "from_utf8",
        "floor str",
        "typed decode",
        "typed drop",
        "parse_response + drop",
        "direct reader skip only",
        "direct decode without drop",
    ]
    .iter()
    .zip(t)
    {
        println!("{name}: {:?}", d / rounds);
    }
}
