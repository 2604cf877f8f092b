//! Fuzz target `html`: see `lectern_fuzz::entries::html`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::html(data));
