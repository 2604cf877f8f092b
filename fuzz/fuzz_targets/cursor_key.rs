//! Fuzz target `cursor_key`: see `lectern_fuzz::entries::cursor_key`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::cursor_key(data));
