//! Fuzz target `markdown`: see `lectern_fuzz::entries::markdown`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::markdown(data));
