//! The TLS every HTTP client of litrev speaks: rustls with ring's cryptography. ring builds
//! from a few C and assembly files; aws-lc, reqwest's default, is a C library several times
//! its size, whose build was the longest single step of a fresh build.

/// A blocking `reqwest` client builder whose TLS uses ring, installed as the process's
/// default cryptography the first time. Every client litrev builds starts here, so none
/// meets a process without a provider (reqwest refuses to build one then).
pub fn blocking_client_builder() -> reqwest::blocking::ClientBuilder {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // Fails only when a provider is installed already, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::blocking::Client::builder()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_build_with_ring_installed_once() {
        blocking_client_builder().build().expect("first client");
        blocking_client_builder().build().expect("second client");
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
