//! The server proof: `POST /auth/challenge` answers HMAC-SHA256 over a
//! client's nonce, the server's pid and port, keyed with the access key, so a
//! client can tell the real server from an impostor before it sends the key.
//!
//! Byte layout (also in docs/local-api.md, with a worked example):
//! - key: the ASCII bytes of the access key exactly as stored in the
//!   `access-key` file (64 lowercase hex characters, no newline);
//! - message: `b"lectern-challenge-v1\n"`, the nonce's bytes, `b"\n"`, the pid
//!   in decimal ASCII, `b"\n"`, the port in decimal ASCII (no trailing newline);
//! - proof: the 32-byte MAC as 64 lowercase hex characters.

use hmac::{KeyInit, Mac};
use subtle::ConstantTimeEq;

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// Shortest and longest nonce, in bytes.
pub const NONCE_MIN: usize = 16;
pub const NONCE_MAX: usize = 256;

/// Checks a nonce: 16–256 printable ASCII characters (`!` to `~`, no spaces).
pub fn check_nonce(nonce: &str) -> Result<(), String> {
    let len = nonce.len();
    if !(NONCE_MIN..=NONCE_MAX).contains(&len) {
        return Err(format!(
            "nonce is {len} bytes long; give {NONCE_MIN} to {NONCE_MAX} printable ASCII characters (e.g. 32 random hex digits)"
        ));
    }
    if !nonce.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(
            "nonce may hold only printable ASCII characters (! to ~), no spaces or control characters".into(),
        );
    }
    Ok(())
}

/// The message the MAC covers.
pub fn message(nonce: &str, pid: u32, port: u16) -> Vec<u8> {
    format!("lectern-challenge-v1\n{nonce}\n{pid}\n{port}").into_bytes()
}

/// The proof for `nonce` as lowercase hex.
pub fn proof(access_key: &str, nonce: &str, pid: u32, port: u16) -> String {
    let mut mac = HmacSha256::new_from_slice(access_key.as_bytes()).expect("HMAC takes any key length");
    mac.update(&message(nonce, pid, port));
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `claimed` is the right proof (constant time).
pub fn verify(access_key: &str, nonce: &str, pid: u32, port: u16, claimed: &str) -> bool {
    let expected = proof(access_key, nonce, pid, port);
    expected.as_bytes().ct_eq(claimed.trim().to_ascii_lowercase().as_bytes()).into()
}

/// 256 random bits as 64 lowercase hex characters (access keys, session ids,
/// login tokens, nonces).
pub fn random_hex() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    hex::encode(bytes)
}

/// Constant-time comparison of two secrets.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_bind_nonce_pid_and_port() {
        let key = "00".repeat(32);
        let p = proof(&key, "0123456789abcdef", 4242, 50000);
        assert_eq!(p.len(), 64);
        assert!(verify(&key, "0123456789abcdef", 4242, 50000, &p));
        assert!(!verify(&key, "0123456789abcdef", 4243, 50000, &p));
        assert!(!verify(&key, "0123456789abcdef", 4242, 50001, &p));
        assert!(!verify(&key, "0123456789abcdeF", 4242, 50000, &p));
    }

    #[test]
    fn nonces_are_checked() {
        assert!(check_nonce("short").is_err());
        assert!(check_nonce(&"a".repeat(257)).is_err());
        assert!(check_nonce("has a space in it!").is_err());
        assert!(check_nonce("0123456789abcdef").is_ok());
    }
}
