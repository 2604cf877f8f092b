//! Fuzz target `stdio_framing`: see `lectern_fuzz::entries::stdio_framing`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lectern_fuzz::entries::stdio_framing(data));
