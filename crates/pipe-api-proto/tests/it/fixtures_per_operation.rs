//! Every operation of the table has its answers in `fixtures/operations/<name>/`, written from
//! the contracts and the service notes: at least one success (`ok*`) and one error
//! (`<status>_*`), and each reads as its name says (`request*` files are bodies the operation
//! sends: `strict_requests.rs`). An operation added to the table without
//! them fails here.

use std::path::Path;

use crate::every_operation::parse;
use pipe_api_proto::Error;
use pipe_api_proto::operations::OPERATIONS;

use crate::common::response;

#[test]
fn every_operation_has_a_success_and_an_error_fixture_that_read_as_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures/operations");
    for operation in OPERATIONS {
        let folder = root.join(operation.name);
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|_| panic!("{}: no fixtures in {folder:?}", operation.name));
        let (mut successes, mut errors) = (0, 0);
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            // A request body, read by `strict_requests.rs`.
            if name.starts_with("request") {
                continue;
            }
            let body = std::fs::read(&path).unwrap();
            if name.starts_with("ok") {
                successes += 1;
                let parsed = parse(operation.name, response(200, &body)).unwrap();
                assert!(parsed.is_ok(), "{}/{name}: {:?}", operation.name, parsed.err());
            } else {
                errors += 1;
                let status: u16 =
                    name[..3].parse().unwrap_or_else(|_| panic!("{}/{name}: ok* or <status>_*", operation.name));
                match parse(operation.name, response(status, &body)).unwrap() {
                    Err(Error::Api(error)) => assert_eq!(error.status().as_u16(), status, "{}/{name}", operation.name),
                    other => panic!("{}/{name}: {other:?}", operation.name),
                }
            }
        }
        assert!(successes > 0 && errors > 0, "{}: {successes} success and {errors} error fixtures", operation.name);
    }
}
