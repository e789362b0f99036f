//! Test support shared by the tests, benches and examples of every loopir crate (a
//! dev-dependency only; nothing here is part of an API).
//!
//! * [`oracle`] — the one place that finds the reference compiler's oracle;
//! * [`dump`] — a structural dump of parsed IR, for snapshots that pin what the parser
//!   recovered and not only the text;
//! * [`text`] — where two texts first differ, for failure messages.
//!
//! The fixture harness that runs `filetests/` lives in the workspace root's tests
//! (`tests/filetests/`); see `docs/testing.md`.

pub mod dump;
pub mod oracle;
pub mod text;
