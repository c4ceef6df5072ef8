//! The one content hash of litrev: sha256 in lower-case hex, the name stored texts and output
//! files go by.

use sha2::{Digest, Sha256};

/// sha256 of bytes, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
