//! The TLS of a client, chosen once when it is built, for its REST client and its event
//! stream's WebSocket alike.
//!
//! | features | REST and WebSocket |
//! |---|---|
//! | `native-tls` (with or without a `rustls*` feature) | the platform's library and roots |
//! | `rustls-aws-lc` (the default's), `rustls-ring`, `rustls-no-provider` | rustls and the platform's certificate verifier, with rustls' process-default provider if the program installed one, else aws-lc-rs (`rustls-aws-lc`), else ring (`rustls-ring`); with `rustls-no-provider` alone and no process default, building the client fails |
//! | none | plain `http://` and `ws://` only |

#[cfg(feature = "rustls-no-provider")]
use std::sync::Arc;

use txc_core::Error;

/// The TLS of a client's connections.
#[derive(Clone, Debug)]
pub(crate) enum Tls {
    /// No TLS feature: `http://` and `ws://` only.
    #[cfg_attr(
        any(feature = "native-tls", feature = "rustls-no-provider"),
        allow(dead_code)
    )]
    Plain,
    /// The platform's TLS library, with the platform's roots.
    #[cfg(feature = "native-tls")]
    Native,
    /// rustls with this provider and the platform's certificate verifier.
    #[cfg(feature = "rustls-no-provider")]
    #[cfg_attr(feature = "native-tls", allow(dead_code))]
    Rustls(Arc<rustls::crypto::CryptoProvider>),
}

impl Tls {
    /// The TLS the features and the process choose (see the module's table). Fails, rather
    /// than panicking when the first connection is made, when rustls has no provider.
    pub(crate) fn choose() -> Result<Self, Error> {
        #[cfg(feature = "native-tls")]
        return Ok(Self::Native);
        #[cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
        return rustls_provider().map(Self::Rustls);
        #[cfg(not(any(feature = "native-tls", feature = "rustls-no-provider")))]
        Ok(Self::Plain)
    }
}

/// rustls' process default, else the provider of this crate's features, aws-lc-rs first.
#[cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
fn rustls_provider() -> Result<Arc<rustls::crypto::CryptoProvider>, Error> {
    if let Some(installed) = rustls::crypto::CryptoProvider::get_default() {
        return Ok(Arc::clone(installed));
    }
    #[cfg(feature = "rustls-aws-lc")]
    return Ok(Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    #[cfg(all(feature = "rustls-ring", not(feature = "rustls-aws-lc")))]
    return Ok(Arc::new(rustls::crypto::ring::default_provider()));
    #[cfg(not(any(feature = "rustls-ring", feature = "rustls-aws-lc")))]
    Err(Error::invalid_config(
        "tls",
        "rustls has no crypto provider: with txc-async's `rustls-no-provider` feature, install \
         one as rustls' process default (CryptoProvider::install_default) before building the \
         client, or enable `rustls-aws-lc` or `rustls-ring`",
    ))
}

/// The reqwest client's settings with its TLS: `tls`'s library, verifier and provider.
pub(crate) fn with_tls(
    builder: reqwest::ClientBuilder,
    tls: &Tls,
) -> Result<reqwest::ClientBuilder, Error> {
    match tls {
        Tls::Plain => Ok(builder),
        #[cfg(feature = "native-tls")]
        Tls::Native => Ok(builder.tls_backend_native()),
        #[cfg(feature = "rustls-no-provider")]
        Tls::Rustls(provider) => {
            let mut config =
                rustls_config(provider).map_err(|e| Error::invalid_config("tls", e))?;
            // What reqwest asks for itself over HTTP/1 only (this crate enables no HTTP/2).
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Ok(builder.tls_backend_preconfigured(config))
        }
    }
}

/// A rustls configuration with `provider` and the platform's certificate verifier (what
/// reqwest's own rustls uses).
#[cfg(feature = "rustls-no-provider")]
#[cfg_attr(feature = "native-tls", allow(dead_code))]
pub(crate) fn rustls_config(
    provider: &Arc<rustls::crypto::CryptoProvider>,
) -> Result<rustls::ClientConfig, String> {
    use rustls_platform_verifier::BuilderVerifierExt;

    rustls::ClientConfig::builder_with_provider(Arc::clone(provider))
        .with_safe_default_protocol_versions()
        .and_then(BuilderVerifierExt::with_platform_verifier)
        .map(|builder| builder.with_no_client_auth())
        .map_err(|e| format!("TLS configuration: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    // One process default per test binary: these tests never install one (tests/tls.rs does,
    // in a process of its own).
    #[cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
    #[test]
    fn rustls_takes_the_features_provider_without_a_process_default() {
        assert!(rustls::crypto::CryptoProvider::get_default().is_none());
        let expected = if cfg!(feature = "rustls-aws-lc") {
            Some("AwsLcRs")
        } else if cfg!(feature = "rustls-ring") {
            Some("Ring")
        } else {
            None
        };
        match (Tls::choose(), expected) {
            (Ok(Tls::Rustls(provider)), Some(name)) => {
                assert_eq!(format!("{:?}", provider.key_provider), name);
                let config = rustls_config(&provider);
                assert!(config.is_ok_and(|c| Arc::ptr_eq(c.crypto_provider(), &provider)));
            }
            (Err(Error::InvalidConfig { what, reason, .. }), None) => {
                assert_eq!(what, "tls");
                assert!(reason.contains("install_default"), "{reason}");
            }
            (other, _) => panic!("unexpected choice {other:?} (expected {expected:?})"),
        }
    }

    #[cfg(feature = "native-tls")]
    #[test]
    fn native_tls_wins_over_rustls() {
        assert!(matches!(Tls::choose(), Ok(Tls::Native)));
    }

    #[cfg(not(any(feature = "native-tls", feature = "rustls-no-provider")))]
    #[test]
    fn without_a_tls_feature_the_client_is_plain() {
        assert!(matches!(Tls::choose(), Ok(Tls::Plain)));
    }
}
