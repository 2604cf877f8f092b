//! Fuzz target `docset_index`: see `lectern_fuzz::entries::docset_index`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::docset_index(data));
