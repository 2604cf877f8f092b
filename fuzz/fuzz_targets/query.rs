//! Fuzz target `query`: see `lectern_fuzz::entries::query`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::query(data));
