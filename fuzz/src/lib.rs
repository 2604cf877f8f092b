//! The fuzz targets' entry functions, shared with `tests/fuzz_replay.rs`.
pub mod entries;
