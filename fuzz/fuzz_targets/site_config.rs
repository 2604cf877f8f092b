//! Fuzz target `site_config`: see `lectern_fuzz::entries::site_config`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::site_config(data));
