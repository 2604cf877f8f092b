//! Fuzz target `docset`: see `lectern_fuzz::entries::docset`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::docset(data));
